import { describe, expect, it } from 'vitest';
import { findDuplicateKeys } from '../../../lib/parse/json-dupes';

const keys = (text: string, limit?: number): string[] => findDuplicateKeys(text, limit).map((d) => d.key);

describe('findDuplicateKeys', () => {
  it('finds a repeated key in one object and its offset', () => {
    const text = '{"a":1,"b":2,"a":3}';
    expect(findDuplicateKeys(text)).toEqual([{ key: 'a', offset: 13 }]);
  });
  it('treats keys in sibling and nested objects as distinct', () => {
    expect(keys('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toEqual([]);
    expect(keys('{"x":[{"a":1,"a":2}],"y":{"b":{"c":1,"c":2}}}')).toEqual(['a', 'c']);
  });
  it('ignores string values that look like keys, and quotes, braces and colons inside strings', () => {
    expect(keys('{"a":"a","b":"a:\\"}{[","c":["a","a"]}')).toEqual([]);
  });
  it('compares decoded keys', () => {
    expect(keys('{"name":1,"n\\u0061me":2}')).toEqual(['name']);
  });
  it('stops at the limit', () => {
    expect(keys('{"a":1,"a":2,"a":3,"a":4}', 2)).toEqual(['a', 'a']);
  });
  it('handles deep nesting and long input in one pass', () => {
    const depth = 100_000;
    expect(keys(`${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`)).toEqual([]);
    const many = `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":0}`;
    expect(keys(many)).toEqual(['k7']);
  });
});
