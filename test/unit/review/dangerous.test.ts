// The dangerous-skill corpus (test/fixtures/dangerous/): one folder per attack described in public
// research, each payload benign; its case.json names the source and the findings that must be
// found (kind, file, severity at least, line when given). Files git cannot store (`.git/…`) and
// binaries are given inline in case.json.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reviewSkill } from '../../../lib/review';
import type { FindingKind, FindingSeverity } from '../../../lib/types';
import { SEVERITY_ORDER } from '../../../lib/types/review';

const DIR = resolve(fileURLToPath(new URL('../../fixtures/dangerous', import.meta.url)));

interface Expected {
  kind: FindingKind;
  file: string;
  severity: FindingSeverity;
  line?: number;
}

interface Case {
  title: string;
  source: string;
  files?: Record<string, string>;
  filesBase64?: Record<string, string>;
  expect: Expected[];
}

function filesOf(dir: string, base = dir, out: { path: string; bytes: Uint8Array }[] = []): { path: string; bytes: Uint8Array }[] {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) filesOf(full, base, out);
    else if (full !== join(base, 'case.json')) out.push({ path: relative(base, full), bytes: new Uint8Array(readFileSync(full)) });
  }
  return out;
}

const CASES = readdirSync(DIR)
  .filter((name) => statSync(join(DIR, name)).isDirectory())
  .sort();
const enc = new TextEncoder();

describe('the dangerous-skill corpus: every expected finding is found', () => {
  it('covers every finding kind', () => {
    const kinds = new Set(CASES.flatMap((name) => (JSON.parse(readFileSync(join(DIR, name, 'case.json'), 'utf8')) as Case).expect.map((e) => e.kind)));
    const all: FindingKind[] = [
      'load-command',
      'hooks',
      'tool-grant',
      'unreadable-frontmatter',
      'executable',
      'install-script',
      'auto-run-file',
      'tool-metadata',
      'dot-file',
      'code-file',
      'remote-code',
      'persistence',
      'secrets',
      'sends-data',
      'privilege',
      'hidden-text',
      'hidden-in-image',
      'chat-exfiltration',
      'connected-apps',
      'assistant-memory',
      'concealment',
      'broad-trigger',
    ];
    expect(all.filter((k) => !kinds.has(k))).toEqual([]);
  });

  it.each(CASES)('%s', (name) => {
    const c = JSON.parse(readFileSync(join(DIR, name, 'case.json'), 'utf8')) as Case;
    expect(c.source.length).toBeGreaterThan(10);
    const files = filesOf(join(DIR, name));
    for (const [path, text] of Object.entries(c.files ?? {})) files.push({ path, bytes: enc.encode(text) });
    for (const [path, b64] of Object.entries(c.filesBase64 ?? {})) files.push({ path, bytes: new Uint8Array(Buffer.from(b64, 'base64')) });
    const review = reviewSkill(files);
    const missing = c.expect.filter(
      (e) =>
        !review.findings.some((f) => f.kind === e.kind && f.file === e.file && SEVERITY_ORDER.indexOf(f.severity) <= SEVERITY_ORDER.indexOf(e.severity) && (e.line === undefined || f.line === e.line)),
    );
    const got = review.findings.map((f) => `${f.severity} ${f.kind} ${f.file}:${f.line ?? '-'} ${f.match}`);
    expect(missing, got.join('\n')).toEqual([]);
  });
});
