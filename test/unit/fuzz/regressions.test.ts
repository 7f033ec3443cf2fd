// Inputs `npm run fuzz` found that broke an invariant, minimised by fast-check, kept as plain
// tests so that the fix stays. Each names the target and what went wrong.
import { describe, expect, it } from 'vitest';
import { parseIndex } from '../../../lib/parse/index-json';
import type { ParsedIndex } from '../../../lib/parse/index-json';

describe('fuzz regressions', () => {
  it('index-json: a v0.1 entry whose name is a lone surrogate is refused, not thrown (URIError from encodeURIComponent)', () => {
    // Minimised counterexample: {"skills":[{"name":"\udfff","files":[]}]}
    const bytes = Uint8Array.from([
      123, 34, 115, 107, 105, 108, 108, 115, 34, 58, 91, 123, 34, 110, 97, 109, 101, 34, 58, 34, 92, 117, 100, 102, 102, 102, 34, 44, 34, 102, 105, 108, 101, 115, 34, 58, 91, 93, 125, 93, 125,
    ]);
    const out = parseIndex(bytes, 'https://example.test/.well-known/agent-skills/index.json', 'https://example.test', 'index');
    expect('invalid' in out).toBe(false);
    const c = (out as ParsedIndex).candidates[0];
    expect(c?.url).toBeNull();
    expect(c?.refusal).toMatchObject({ status: 'invalid', code: 'v01-name-invalid' });
  });

  it('index-json: a lone surrogate inside an otherwise usable v0.1 name is refused as well', () => {
    // JSON.stringify writes the lone surrogate as the escape \ud800, as a publisher's file would.
    const text = JSON.stringify({
      skills: [
        { name: 'pdf\ud800x', files: ['SKILL.md'] },
        { name: 'pdf', files: ['SKILL.md'] },
      ],
    });
    const out = parseIndex(new TextEncoder().encode(text), 'https://example.test/.well-known/agent-skills/index.json', 'https://example.test', 'index') as ParsedIndex;
    expect(out.candidates.map((c) => c.refusal?.code ?? c.url)).toEqual(['v01-name-invalid', 'https://example.test/.well-known/agent-skills/pdf/SKILL.md']);
  });
});
