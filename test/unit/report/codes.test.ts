// docs/report.md documents every code the engine emits and every code the parsers and
// verifiers put into diagnostics, with the same meaning as the catalogue.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeInfo, diag, ENGINE_CODES } from '../../../lib/report/codes';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const doc = readFileSync(join(root, 'docs/report.md'), 'utf8');

function sourceCodes(dir: string): string[] {
  const out = new Set<string>();
  for (const f of readdirSync(join(root, dir))) {
    if (!f.endsWith('.ts')) continue;
    const text = readFileSync(join(root, dir, f), 'utf8');
    for (const m of text.matchAll(/(?:diag\(\s*|code: |invalid\(|tooLarge\(|unsupported\(|fail\(|failed\()'([a-z0-9]+(?:-[a-z0-9]+)+)'/g)) out.add(m[1] as string);
  }
  return [...out];
}

describe('diagnostic code catalogue', () => {
  it('every engine code is in docs/report.md with its catalogue level and meaning', () => {
    for (const [code, info] of Object.entries(ENGINE_CODES)) {
      expect(doc, code).toContain(`| \`${code}\` | ${info.level} | ${info.meaning} |`);
    }
  });

  it('every code of the parsers, the URL rules and the verifiers is documented', () => {
    const codes = [...sourceCodes('lib/parse'), ...sourceCodes('lib/verify'), ...sourceCodes('lib/net')];
    expect(codes.length).toBeGreaterThan(50);
    const missing = codes.filter((c) => !doc.includes('`' + c + '`'));
    expect(missing).toEqual([]);
  });

  it('diag() takes the catalogue level; unknown codes are not in the catalogue', () => {
    expect(diag('key-changed', 'm')).toEqual({ code: 'key-changed', level: 'error', message: 'm' });
    expect(diag('document-stale', 'm', { url: 'u', line: 3 })).toMatchObject({ level: 'warning', url: 'u', line: 3 });
    expect(codeInfo('no-such-code')).toBeNull();
    expect(codeInfo('skill-limit')?.level).toBe('error');
  });
});
