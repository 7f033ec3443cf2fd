// The catalogue of diagnostic and status codes the engine itself emits (docs/report.md lists
// them with the same one-line meanings). Parsers and verifiers add their own codes to the
// diagnostics they return; the report passes those through unchanged.
import { diag as parseDiag } from '../parse/common';
import type { Diagnostic, DiagnosticLevel } from '../types';

export interface CodeInfo {
  level: DiagnosticLevel;
  meaning: string;
}

export const ENGINE_CODES = {
  // --- skill status codes (SkillReport.statusCode) ---
  'verified-signed': { level: 'info', meaning: 'Every declared digest matches and the signature verifies under the pinned key.' },
  verified: { level: 'info', meaning: 'Every declared digest matches; the origin does not sign.' },
  'verified-unsigned-entry': { level: 'warning', meaning: 'Digests match, but this entry has no signature although the index signs.' },
  'unverified-no-digest': { level: 'warning', meaning: 'No discovery document declared a digest; the computed digest is bound on approval.' },
  'sources-disagree': { level: 'error', meaning: 'The declared digests for this artifact differ from each other.' },
  'digest-mismatch': { level: 'error', meaning: 'The bytes match no declared digest, raw or lf-normalized.' },
  'fetch-not-found': { level: 'error', meaning: 'The artifact answered 404 or 410.' },
  'fetch-forbidden': { level: 'error', meaning: 'The artifact answered 401 or 403.' },
  'fetch-client-error': { level: 'error', meaning: 'The artifact answered another 4xx status, or an unsolicited 304.' },
  'fetch-html': { level: 'error', meaning: 'The artifact answered 200 with an HTML page (soft 404).' },
  'fetch-redirect': { level: 'error', meaning: 'The artifact redirected too often, in a loop, or without a usable Location.' },
  'fetch-transient': { level: 'error', meaning: 'The artifact could not be fetched now (429, 5xx, timeout, network) and no verified copy is stored.' },
  'fetch-too-large': { level: 'error', meaning: 'The artifact is over its byte cap.' },
  'url-blocked': { level: 'error', meaning: 'The artifact URL or one of its redirects breaks the artifact URL rules (FORMATS.md §9.3).' },
  'skill-limit': { level: 'error', meaning: 'The origin lists more skills than are fetched per origin (64); this one was not fetched.' },
  'probe-budget': {
    level: 'warning',
    meaning: "The site's other artifacts used up the 32 MiB one probe may download; this one was not downloaded (its last verified bytes are used when there are any) and is fetched on a later probe.",
  },
  'key-changed': { level: 'error', meaning: 'The origin offers a key that differs from its pin.' },
  'key-conflict': { level: 'error', meaning: 'signing_key in the index and signing-key.pub name different keys.' },
  'key-stopped-signing': { level: 'error', meaning: 'The origin is pinned but no longer offers a usable key.' },
  'key-revoked': { level: 'error', meaning: 'The origin offers a key the user revoked for it; it is never pinned or verified against, even after "forget".' },
  'key-downgrade': { level: 'error', meaning: 'The skill was approved while signed, and its entry lost its signature.' },
  'key-unavailable': { level: 'error', meaning: 'The origin is pinned and its key documents could not be fetched now; nothing can be checked against the pin.' },
  'bad-signature': { level: 'error', meaning: 'The entry signature does not verify over the lf-normalized SKILL.md under the origin key.' },
  'signature-malformed': { level: 'error', meaning: 'The entry signature is not base64 of 64 bytes.' },
  'signing-key-malformed': { level: 'error', meaning: 'The origin key is not base64 of 32 bytes; signed entries cannot verify and nothing is pinned.' },
  'snapshot-failed': { level: 'error', meaning: 'A user-configured snapshot-v1 signature does not verify over the skill files.' },
  'content-changed': { level: 'warning', meaning: 'An approved skill changed its digest under the same key; re-approval after the diff is needed.' },
  'archive-files-changed': { level: 'warning', meaning: "An approved archive's files changed (added, removed or changed) under the same SKILL.md and key; re-approval after the diff is needed." },
  'approval-files-unbound': {
    level: 'warning',
    meaning: "The approval of this archive was made by an earlier version and binds its SKILL.md only: it is suspended until the user approves the archive's files.",
  },
  'skill-error': { level: 'error', meaning: 'Processing this skill failed unexpectedly; nothing stored before was changed.' },

  // --- origin and source diagnostics ---
  'engine-error': { level: 'error', meaning: 'The probe failed unexpectedly; the last stored state is kept.' },
  'storage-error': { level: 'error', meaning: 'The browser storage refused a write or holds an unreadable record; the probe went on, and what it could not store is not remembered.' },
  'no-discovery-documents': { level: 'info', meaning: 'The origin publishes neither llms.txt nor a skill index.' },
  'no-skills-section': { level: 'info', meaning: 'llms.txt exists but has no `## Skills` section.' },
  'document-too-large': { level: 'warning', meaning: 'A discovery document is over its byte cap and was dropped.' },
  'document-blocked': { level: 'warning', meaning: 'A discovery document URL could not be requested (not on the origin, or unparseable).' },
  'document-stale': { level: 'warning', meaning: 'A discovery document could not be fetched now; the last good copy is used.' },
  'document-unavailable': { level: 'warning', meaning: 'A discovery document could not be fetched now and no good copy is stored.' },
  'document-backoff': { level: 'info', meaning: 'A discovery document is not requested until its retry time after transient failures.' },
  'index-invalid': { level: 'error', meaning: 'The skill index exists but is not an object with a `skills` array; the legacy path is not probed.' },
  'legacy-index-used': { level: 'info', meaning: 'The current index is absent; the legacy /.well-known/skills/index.json was used.' },
  'signing-alg-unknown': { level: 'warning', meaning: 'The index names a signing_alg other than "ed25519"; the origin is treated as not signing.' },
  'signing-alg-missing': { level: 'warning', meaning: 'The index has a signing_key but no signing_alg; the origin is treated as not signing.' },
  'signing-key-pub-malformed': { level: 'warning', meaning: 'signing-key.pub is not base64 of 32 bytes; it is ignored.' },
  'key-pinned': { level: 'info', meaning: 'The first key seen for this origin was pinned.' },
  'signatures-ignored': { level: 'warning', meaning: 'Entries carry signatures but the origin offers no usable key; the signatures are ignored.' },
  'probe-budget-used': { level: 'warning', meaning: "The site's artifacts reached the download budget of one probe (32 MiB); the rest are fetched on later probes." },
  'artifact-stale': { level: 'warning', meaning: 'The artifact could not be fetched now; the last verified bytes are used.' },
  'skill-bytes-over-budget': {
    level: 'warning',
    meaning:
      'The verified bytes were not stored: the site, or all sites together, would go over the stored-bytes budget and only approved bytes are left to evict. Nothing stored before was removed; approving needs the bytes stored.',
  },
  'artifact-mismatch-remembered': {
    level: 'info',
    meaning: 'The bytes of this artifact failed its declared digest on an earlier probe; they are not downloaded again until the cache entry expires, then only revalidated.',
  },
  'cross-origin-artifact': { level: 'warning', meaning: 'The artifact is on another host than the origin; approving it needs an extra confirmation.' },
  'attestations-unavailable': { level: 'info', meaning: 'The attestations document could not be used; attestation verdicts are not shown.' },
  'approval-suspended': { level: 'warning', meaning: 'The approval no longer matches the skill (digest, key or status) and is suspended.' },
} as const satisfies Record<string, CodeInfo>;

export type EngineCode = keyof typeof ENGINE_CODES;

export function codeInfo(code: string): CodeInfo | null {
  return Object.hasOwn(ENGINE_CODES, code) ? ENGINE_CODES[code as EngineCode] : null;
}

/** A diagnostic with the catalogue level of `code`. */
export function diag(code: EngineCode, message: string, where: { url?: string; line?: number } = {}): Diagnostic {
  return parseDiag(code, ENGINE_CODES[code].level, message, where);
}
