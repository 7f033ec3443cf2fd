import { describe, expect, it } from 'vitest';
import { PINS_PAGE_MAX, pinsPage } from '../../../lib/types/pins-page';
import { parseRequest } from '../../../lib/messages';
import type { Pin } from '../../../lib/types';

function pin(origin: string, fingerprint = 'SHA256:' + 'A'.repeat(43)): Pin {
  return { origin, key: 'AAAA', fingerprint, firstSeen: 1, lastSeen: 2 };
}

const PINS = ['https://c.example', 'https://a.example', 'https://b.test', 'https://d.example'].map((o) => pin(o));

describe('pinsPage', () => {
  it('sorts by origin and cuts the page, counting what matched and what is stored', () => {
    expect(pinsPage(PINS, { offset: 0, limit: 2, filter: '' })).toEqual({
      items: [pin('https://a.example'), pin('https://b.test')],
      offset: 0,
      matching: 4,
      total: 4,
    });
    expect(pinsPage(PINS, { offset: 2, limit: 2, filter: '' }).items.map((p) => p.origin)).toEqual(['https://c.example', 'https://d.example']);
  });

  it('filters before paging (origin part, or fingerprint part without spaces), trimmed and case-blind', () => {
    const withFp = [...PINS, pin('https://e.example', 'SHA256:abcdEFGH' + 'x'.repeat(35))];
    expect(pinsPage(withFp, { offset: 0, limit: 10, filter: '  .EXAMPLE ' }).items.map((p) => p.origin)).toEqual(['https://a.example', 'https://c.example', 'https://d.example', 'https://e.example']);
    const byFp = pinsPage(withFp, { offset: 0, limit: 10, filter: 'abcd efgh' });
    expect([byFp.items.map((p) => p.origin), byFp.matching, byFp.total]).toEqual([['https://e.example'], 1, 5]);
    expect(pinsPage(withFp, { offset: 0, limit: 10, filter: 'nothing' })).toEqual({ items: [], offset: 0, matching: 0, total: 5 });
  });

  it('an offset past the end gives an empty page at the end; the limit is capped; the stored list is not reordered', () => {
    const copy = [...PINS];
    expect(pinsPage(PINS, { offset: 99, limit: 2, filter: '' })).toEqual({ items: [], offset: 4, matching: 4, total: 4 });
    const many = Array.from({ length: PINS_PAGE_MAX + 5 }, (_, i) => pin(`https://s${i}.example`));
    expect(pinsPage(many, { offset: 0, limit: PINS_PAGE_MAX + 5, filter: '' }).items).toHaveLength(PINS_PAGE_MAX);
    expect(PINS).toEqual(copy);
  });
});

describe('the pins-page message', () => {
  it('accepts a page request and refuses bad offsets, limits and filters', () => {
    const ok = { type: 'skillpin:pins-page', offset: 0, limit: 100, filter: '' };
    expect(parseRequest(ok)).not.toBeNull();
    for (const bad of [{ offset: -1 }, { offset: 1.5 }, { limit: 0 }, { limit: PINS_PAGE_MAX + 1 }, { limit: '100' }, { filter: null }, { filter: 'x'.repeat(1001) }]) {
      expect(parseRequest({ ...ok, ...bad }), JSON.stringify(bad)).toBeNull();
    }
  });
});
