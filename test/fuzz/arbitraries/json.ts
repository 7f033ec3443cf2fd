// JSON values with odd shapes: numbers at the edges, keys that reach prototypes, deep nesting,
// long strings, and text-level damage no serializer would produce (repeated keys, truncation).
import fc from 'fast-check';
import { hostileText } from './text';

export const oddKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'url ', 'URL', 'Url', 'skills', 'name', '\u0000');

export const oddScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, 1, -1, 1.5, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 64, '', ' ', '0', 'null', 'true'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  hostileText(5),
  fc.oneof({ weight: 9, arbitrary: fc.nat(100) }, { weight: 1, arbitrary: fc.nat(3000) }).map((n) => 'x'.repeat(n)),
);

/** An odd value: a scalar, or a small array or object of them. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddScalar },
  { weight: 1, arbitrary: fc.array(oddScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(oddKey, fc.string({ maxLength: 4 })), oddScalar, { maxKeys: 3 }) },
  {
    weight: 1,
    arbitrary: fc.nat(60).map((n) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    }),
  },
);

/** 64 hex digits, and the near misses publishers write. */
export const hex64 = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9a-f]{64}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9A-F]{64}$/) },
  { weight: 1, arbitrary: fc.constantFrom('', '0'.repeat(63), '0'.repeat(65), 'g'.repeat(64), 'x'.repeat(64), '<sha256>', '${SHA256}', `${'a'.repeat(63)}\n`, ` ${'b'.repeat(64)}`) },
);

/** Serialize as JSON, then now and then damage the text the way no serializer would. */
export function jsonText(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc
    .tuple(
      value,
      fc.constantFrom('none', 'none', 'none', 'dup-key', 'truncate', 'pretty', 'deep', 'proto-key', 'trailing-comma', 'lone-surrogate'),
      fc.nat(),
      fc.oneof({ weight: 9, arbitrary: fc.nat(300) }, { weight: 1, arbitrary: fc.nat(6000) }),
    )
    .map(([v, damage, at, depth]) => {
      const text = JSON.stringify(v) ?? 'null';
      switch (damage) {
        case 'dup-key':
          return text.replace(/\{"([^"\\]*)":/g, (m, k: string) => `{"${k}":"first","${k}":`);
        case 'truncate':
          return text.slice(0, at % (text.length + 1));
        case 'pretty':
          return JSON.stringify(v, null, '\t') ?? 'null';
        case 'deep':
          return text.replace(/\[/, `[${'['.repeat(depth)}1${']'.repeat(depth)},`);
        case 'proto-key':
          return text.replace(/^\{/, '{"__proto__":{"polluted":1},');
        case 'trailing-comma':
          return text.replace(/\}$/, ',}');
        case 'lone-surrogate':
          return text.replace(/"$|":/, (m) => `\\ud800${m}`);
        default:
          return text;
      }
    });
}
