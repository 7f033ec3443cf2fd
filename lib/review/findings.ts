// The findings of one review as they are collected: bounded per file and kind and per skill, and
// deduplicated (the same kind, file, line and match once).
import type { Finding, FindingKind, FindingSeverity } from '../types';
import { COLLECT_MAX, PER_FILE_KIND_MAX } from './limits';
import { shown } from './shown';

export class Findings {
  readonly list: Finding[] = [];
  truncated = false;
  private readonly perFileKind = new Map<string, number>();
  private readonly seen = new Set<string>();

  /** `budget`: bytes of text the review may still read in this skill. */
  constructor(public budget: number) {}

  /** Adds a finding; `match` is raw text (shown() escapes and shortens it). */
  add(kind: FindingKind, severity: FindingSeverity, file: string, line: number | null, match: string, message: string): void {
    const shownMatch = shown(match.trim());
    const id = `${kind}\u0000${file}\u0000${line ?? ''}\u0000${shownMatch}`;
    if (this.seen.has(id)) return;
    const slot = `${kind}\u0000${file}`;
    const n = this.perFileKind.get(slot) ?? 0;
    if (n >= PER_FILE_KIND_MAX || (this.list.length >= COLLECT_MAX && severity !== 'acts')) {
      this.truncated = true;
      return;
    }
    this.perFileKind.set(slot, n + 1);
    this.seen.add(id);
    this.list.push({ kind, severity, file, line, match: shownMatch, message });
  }
}
