// docs/report.md ("Review") lists every finding kind once, with the severity the rules give it
// (the dangerous-skill corpus gives every kind at least once).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FINDING_KINDS } from '../../../lib/types';

const doc = readFileSync(resolve(fileURLToPath(new URL('../../../docs/report.md', import.meta.url))), 'utf8');

describe('docs/report.md documents the review', () => {
  it('has one row per finding kind of lib/types/review.ts, with a severity', () => {
    const kinds = Object.keys(FINDING_KINDS);
    expect(kinds.length).toBeGreaterThan(20);
    const rows = new Map([...doc.matchAll(/^\| `([a-z-]+)` \| `(acts|can-act|look)` \|/gm)].map((m) => [m[1] as string, m[2] as string]));
    expect(kinds.filter((k) => !rows.has(k as string))).toEqual([]);
    const dangerous = resolve(fileURLToPath(new URL('../../fixtures/dangerous', import.meta.url)));
    const given = new Map<string, string>();
    for (const name of readdirSync(dangerous).filter((n) => !n.endsWith('.md'))) {
      const c = JSON.parse(readFileSync(resolve(dangerous, name, 'case.json'), 'utf8')) as { expect: { kind: string; severity: string }[] };
      for (const e of c.expect) given.set(e.kind, e.severity);
    }
    expect(Object.fromEntries([...rows].filter(([k]) => given.has(k)))).toEqual(Object.fromEntries(given));
  });
});
