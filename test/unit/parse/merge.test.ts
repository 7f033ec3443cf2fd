import { describe, expect, it } from 'vitest';
import { mergeCandidates } from '../../../lib/parse/merge';
import { blankCandidate } from '../../../lib/parse/common';
import type { DeclaredDigest } from '../../../lib/types';
import type { SkillCandidate } from '../../../lib/parse/candidate';
import { codes, HEX_A, HEX_B } from './helpers';

const URL_A = 'https://example.test/skills/a/SKILL.md';
const URL_B = 'https://example.test/skills/b/SKILL.md';

function cand(over: Partial<SkillCandidate> & Pick<SkillCandidate, 'source' | 'position'>): SkillCandidate {
  return { ...blankCandidate(over.source, over.position, over.url ?? ''), ...over };
}

const inline = (hex: string): DeclaredDigest => ({ source: 'llms-txt', field: 'inline-sha256', hex });
const idxDigest = (hex: string): DeclaredDigest => ({ source: 'index', field: 'index-digest', hex });
const idxSha = (hex: string): DeclaredDigest => ({ source: 'index', field: 'index-sha256', hex });

describe('mergeCandidates', () => {
  it('merges the same resolved URL from llms.txt and the index into one skill', () => {
    const merged = mergeCandidates([
      cand({ source: 'llms-txt', position: 3, url: URL_A, name: 'a', declared: [inline(HEX_A)] }),
      cand({ source: 'index', position: 0, url: URL_A, name: 'a', declared: [idxDigest(HEX_A), idxSha(HEX_A.toUpperCase())], signature: 'sig' }),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ url: URL_A, key: URL_A, disagree: false, signature: 'sig', refusal: null, type: 'skill-md', diagnostics: [] });
    expect(merged[0]?.declared).toEqual([inline(HEX_A), idxDigest(HEX_A), idxSha(HEX_A)]);
    expect(merged[0]?.candidates.map((c) => c.source)).toEqual(['llms-txt', 'index']);
  });

  it('dedupes identical source+field+hex, case-insensitively', () => {
    const merged = mergeCandidates([
      cand({ source: 'llms-txt', position: 1, url: URL_A, declared: [inline(HEX_A)] }),
      cand({ source: 'llms-txt', position: 2, url: URL_A, declared: [inline(HEX_A.toUpperCase())] }),
    ]);
    expect(merged[0]?.declared).toEqual([inline(HEX_A)]);
    expect(merged[0]?.candidates).toHaveLength(2);
  });

  it('marks disagreement when any two declared digests differ', () => {
    expect(
      mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, declared: [inline(HEX_A)] }), cand({ source: 'index', position: 0, url: URL_A, declared: [idxSha(HEX_B)] })])[0]?.disagree,
    ).toBe(true);
    expect(mergeCandidates([cand({ source: 'index', position: 0, url: URL_A, declared: [idxDigest(HEX_A), idxSha(HEX_B)] })])[0]?.disagree).toBe(true);
    expect(
      mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, declared: [inline(HEX_A)] }), cand({ source: 'llms-txt', position: 2, url: URL_A, declared: [inline(HEX_B)] })])[0]
        ?.disagree,
    ).toBe(true);
    expect(mergeCandidates([cand({ source: 'index', position: 0, url: URL_A })])[0]).toMatchObject({ disagree: false, declared: [] });
  });

  it('never merges by name; the same name on different URLs gets duplicate-name', () => {
    const merged = mergeCandidates([
      cand({ source: 'llms-txt', position: 1, url: URL_A, name: 'search_knowledge' }),
      cand({ source: 'llms-txt', position: 2, url: URL_B, name: 'search_knowledge' }),
      cand({ source: 'llms-txt', position: 3, url: 'https://example.test/c', name: 'other' }),
    ]);
    expect(merged).toHaveLength(3);
    expect(codes(merged[0]?.diagnostics)).toEqual(['duplicate-name']);
    expect(codes(merged[1]?.diagnostics)).toEqual(['duplicate-name']);
    expect(merged[2]?.diagnostics).toEqual([]);
  });

  it('does not flag a name repeated by two sources for the same URL', () => {
    const merged = mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, name: 'a' }), cand({ source: 'index', position: 0, url: URL_A, name: 'a' })]);
    expect(merged[0]?.diagnostics).toEqual([]);
  });

  it('gives refused candidates without a URL their own entry with a stable key', () => {
    const refusal = { status: 'invalid' as const, code: 'url-placeholder', message: 'm' };
    const merged = mergeCandidates([
      cand({ source: 'index', position: 4, url: null, refusal }),
      cand({ source: 'index', position: 5, url: null, refusal }),
      cand({ source: 'llms-txt', position: 9, url: null, refusal }),
    ]);
    expect(merged.map((m) => m.key)).toEqual(['llms-txt#9', 'index#4', 'index#5']);
    expect(merged.every((m) => m.url === null && m.refusal === refusal)).toBe(true);
  });

  it('carries the strongest refusal: unsupported before invalid, and any refusal over none', () => {
    const invalid = { status: 'invalid' as const, code: 'llms-sha256-invalid', message: 'i' };
    const unsupported = { status: 'unsupported' as const, code: 'index-type-unsupported', message: 'u' };
    expect(mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, refusal: invalid }), cand({ source: 'index', position: 0, url: URL_A, refusal: unsupported })])[0]?.refusal).toBe(
      unsupported,
    );
    expect(mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, declared: [inline(HEX_A)] }), cand({ source: 'index', position: 0, url: URL_A, refusal: invalid })])[0]?.refusal).toBe(
      invalid,
    );
    const first = { status: 'invalid' as const, code: 'first', message: '' };
    expect(
      mergeCandidates([
        cand({ source: 'index', position: 0, url: URL_A, refusal: { status: 'invalid', code: 'second', message: '' } }),
        cand({ source: 'llms-txt', position: 1, url: URL_A, refusal: first }),
      ])[0]?.refusal,
    ).toBe(first);
  });

  it('prefers the index type when the sources disagree, with a diagnostic', () => {
    const merged = mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, type: 'archive' }), cand({ source: 'index', position: 0, url: URL_A, type: 'skill-md' })]);
    expect(merged[0]?.type).toBe('skill-md');
    expect(codes(merged[0]?.diagnostics)).toEqual(['type-differs']);
    expect(mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, type: 'archive' })])[0]?.type).toBe('archive');
  });

  it('takes the signature from the index, and reports two different ones', () => {
    const merged = mergeCandidates([
      cand({ source: 'llms-txt', position: 1, url: URL_A, signature: 'ignored' }),
      cand({ source: 'index', position: 0, url: URL_A, signature: null }),
      cand({ source: 'index', position: 2, url: URL_A, signature: 's1' }),
      cand({ source: 'index', position: 3, url: URL_A, signature: 's2' }),
    ]);
    expect(merged[0]?.signature).toBe('s1');
    expect(codes(merged[0]?.diagnostics)).toEqual(['signature-differs']);
    expect(mergeCandidates([cand({ source: 'llms-txt', position: 1, url: URL_A, signature: 'x' })])[0]?.signature).toBeNull();
  });

  it('orders skills llms.txt first, then index, then legacy index, each in document order, whatever the input order', () => {
    const input = [
      cand({ source: 'legacy-index', position: 0, url: 'https://example.test/l' }),
      cand({ source: 'index', position: 1, url: URL_B }),
      cand({ source: 'index', position: 0, url: 'https://example.test/i0' }),
      cand({ source: 'llms-txt', position: 7, url: URL_A }),
      cand({ source: 'llms-txt', position: 3, url: 'https://example.test/t3' }),
      cand({ source: 'index', position: 2, url: URL_A }),
    ];
    const merged = mergeCandidates(input);
    expect(merged.map((m) => m.url)).toEqual(['https://example.test/t3', URL_A, 'https://example.test/i0', URL_B, 'https://example.test/l']);
    expect(mergeCandidates([...input].reverse()).map((m) => m.url)).toEqual(merged.map((m) => m.url));
  });

  it('returns nothing for no candidates and does not mutate its input', () => {
    expect(mergeCandidates([])).toEqual([]);
    const c = cand({ source: 'llms-txt', position: 1, url: URL_A, name: 'n' });
    const copy = structuredClone(c);
    mergeCandidates([c, cand({ source: 'llms-txt', position: 2, url: URL_B, name: 'n' })]);
    expect(c).toEqual(copy);
  });
});
