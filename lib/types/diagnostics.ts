// A diagnostic: a stable code, its level and a message for people.

// ---------------------------------------------------------------------------
// Diagnostics: stable codes, human message
// ---------------------------------------------------------------------------

export type DiagnosticLevel = 'info' | 'warning' | 'error';

export interface Diagnostic {
  /** Stable, kebab-case code (listed in docs/report.md). Tests match on it. */
  code: string;
  level: DiagnosticLevel;
  message: string;
  /** The document or artifact URL the diagnostic is about, when there is one. */
  url?: string;
  /** 1-based line in the document, when known. */
  line?: number;
}
