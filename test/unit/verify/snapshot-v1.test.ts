import { describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import { asciiJsonString, compareCodePoints } from '../../../lib/verify/json-ascii';
import { snapshotPayload, snapshotRevisionInput, verifySnapshot } from '../../../lib/verify/snapshot-v1';
import { sha256Sync, toHex } from '../../../lib/verify/sha256';
import { encodeBase64 } from '../../../lib/verify/base64';
import { corpusJson, hex } from './corpus';

interface VectorFile {
  path: string;
  bytes_b64: string;
  size: number;
  digest: string;
}
interface Vector {
  name: string;
  files: VectorFile[];
  frontmatter_version: string | null;
  revision_input: string;
  revision: string;
  signature_payload: string;
  signature_b64: string;
}
interface VectorDoc {
  ed25519_seed_hex: string;
  ed25519_public_key_b64: string;
  origin: string;
  skillId: string;
  vectors: Vector[];
}

const doc = corpusJson('snapshot-v1/test-vectors.self-computed.json') as VectorDoc;

function filesOf(v: Vector): Map<string, Uint8Array> {
  const m = new Map<string, Uint8Array>();
  for (const f of v.files) m.set(f.path, new Uint8Array(Buffer.from(f.bytes_b64, 'base64')));
  return m;
}

function baseInput(v: Vector) {
  return {
    files: filesOf(v),
    origin: doc.origin,
    skillId: doc.skillId,
    version: v.frontmatter_version,
    publicKey: doc.ed25519_public_key_b64,
    signature: v.signature_b64,
  };
}

/** revision_input built with another path order, to show why the order matters. */
function revisionWithOrder(files: Map<string, Uint8Array>, compare: (a: string, b: string) => number): string {
  const paths = [...files.keys()].sort(compare);
  const input =
    '[' +
    paths
      .map((p) => {
        const b = files.get(p) as Uint8Array;
        return '[' + asciiJsonString(p) + ',' + b.length + ',' + asciiJsonString('sha256:' + toHex(sha256Sync(b))) + ']';
      })
      .join(',') +
    ']';
  return 'sha256:' + toHex(sha256Sync(new TextEncoder().encode(input)));
}

describe('snapshot-v1 corpus vectors', () => {
  it('has the 4 vectors', () => {
    expect(doc.vectors.map((v) => v.name.slice(0, 2))).toEqual(['V0', 'V1', 'V2', 'V3']);
  });

  for (const v of doc.vectors) {
    it(`${v.name}: revision_input, revision and payload are byte-exact`, () => {
      for (const f of v.files) {
        const b = filesOf(v).get(f.path) as Uint8Array;
        expect(b.length).toBe(f.size);
        expect('sha256:' + toHex(sha256Sync(b))).toBe(f.digest);
      }
      const r = snapshotRevisionInput(filesOf(v));
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.input).toBe(v.revision_input);
      expect(r.revision).toBe(v.revision);
      const payload = snapshotPayload({ origin: doc.origin, revision: r.revision, skillId: doc.skillId, version: v.frontmatter_version });
      expect(new TextDecoder().decode(payload)).toBe(v.signature_payload);
    });

    it(`${v.name}: verifies`, async () => {
      const r = await verifySnapshot(baseInput(v));
      expect(r).toMatchObject({ state: 'verified', revision: v.revision, code: 'snapshot-verified' });
    });

    it(`${v.name}: flipping any byte of any file fails`, async () => {
      for (const f of v.files) {
        const size = f.size;
        for (let pos = 0; pos < size; pos++) {
          const input = baseInput(v);
          const b = Uint8Array.from(input.files.get(f.path) as Uint8Array);
          b[pos] = (b[pos] as number) ^ 0x01;
          input.files.set(f.path, b);
          const r = await verifySnapshot(input);
          expect(r.state, `${f.path}@${pos}`).toBe('failed');
        }
        // The empty file: adding a byte changes it.
        if (size === 0) {
          const input = baseInput(v);
          input.files.set(f.path, new Uint8Array([0]));
          expect((await verifySnapshot(input)).state).toBe('failed');
        }
      }
    });

    it(`${v.name}: another origin, skillId or version fails`, async () => {
      const origins = [doc.origin + '/', 'https://example.org', 'http://example.com', 'https://Example.com'];
      for (const origin of origins) {
        expect((await verifySnapshot({ ...baseInput(v), origin })).state, origin).toBe('failed');
      }
      expect((await verifySnapshot({ ...baseInput(v), skillId: 'hello-world2' })).state).toBe('failed');
      expect((await verifySnapshot({ ...baseInput(v), skillId: 'Hello-world' })).state).toBe('failed');
      const versions: Array<string | null> = v.frontmatter_version === null ? ['1.0.0', '', 'null'] : [null, '1.0.1', '1.0.0 '];
      for (const version of versions) {
        expect((await verifySnapshot({ ...baseInput(v), version })).state, String(version)).toBe('failed');
      }
    });
  }

  it('V3: localeCompare order breaks it; code-point order is the one that verifies', async () => {
    const v3 = doc.vectors[3] as Vector;
    const files = filesOf(v3);
    expect(revisionWithOrder(files, compareCodePoints)).toBe(v3.revision);
    expect(revisionWithOrder(files, (a, b) => a.localeCompare(b))).not.toBe(v3.revision);
    const sorted = [...files.keys()].sort((a, b) => a.localeCompare(b));
    expect(sorted[0]).toBe('references/café.md');
  });

  it('UTF-16 order breaks a set that mixes astral and U+E000–U+FFFF paths', async () => {
    // V3's paths are all below U+D800, where UTF-16 order equals code-point
    // order; U+1F600 (a surrogate pair, D83D …) sorts before U+FF21 in UTF-16
    // units but after it by code point.
    const v3 = doc.vectors[3] as Vector;
    const utf16 = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    expect(revisionWithOrder(filesOf(v3), utf16)).toBe(v3.revision);

    const files = filesOf(v3);
    files.set('references/\u{1F600}.md', new TextEncoder().encode('smile\n'));
    files.set('references/\uFF21.md', new TextEncoder().encode('fullwidth A\n'));
    const r = snapshotRevisionInput(files);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input).toContain('["references/\\uff21.md",12,');
    expect(r.input.indexOf('\\uff21')).toBeLessThan(r.input.indexOf('\\ud83d\\ude00'));
    const utf16Revision = revisionWithOrder(files, utf16);
    expect(utf16Revision).not.toBe(r.revision);

    // Signed in the correct order with the RFC 8032 TEST 1 key: verifies here,
    // and the UTF-16-order payload does not.
    const seed = hex(doc.ed25519_seed_hex);
    const payload = snapshotPayload({ origin: doc.origin, revision: r.revision, skillId: doc.skillId, version: null });
    const signature = encodeBase64(await ed.signAsync(payload, seed));
    const ok = await verifySnapshot({ files, origin: doc.origin, skillId: doc.skillId, version: null, publicKey: doc.ed25519_public_key_b64, signature });
    expect(ok.state).toBe('verified');
    const wrongPayload = snapshotPayload({ origin: doc.origin, revision: utf16Revision, skillId: doc.skillId, version: null });
    expect(await ed.verifyAsync(await ed.signAsync(payload, seed), wrongPayload, hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'))).toBe(false);
  });
});

describe('snapshot-v1 rules', () => {
  const v1 = doc.vectors[1] as Vector;

  it('honours revision and version pins', async () => {
    const v2 = doc.vectors[2] as Vector;
    expect((await verifySnapshot({ ...baseInput(v2), revisionPin: v2.revision })).state).toBe('verified');
    expect((await verifySnapshot({ ...baseInput(v2), revisionPin: v2.revision.slice(7).toUpperCase() })).state).toBe('verified');
    const wrongRev = await verifySnapshot({ ...baseInput(v2), revisionPin: v1.revision });
    expect(wrongRev).toMatchObject({ state: 'failed', code: 'snapshot-revision-pin', revision: v2.revision });
    expect((await verifySnapshot({ ...baseInput(v2), versionPin: '1.0.0' })).state).toBe('verified');
    expect((await verifySnapshot({ ...baseInput(v2), versionPin: '2.0.0' })).code).toBe('snapshot-version-pin');
    expect((await verifySnapshot({ ...baseInput(v1), versionPin: '1.0.0' })).code).toBe('snapshot-version-pin');
  });

  it('a non-string frontmatter version is an error', async () => {
    const r = await verifySnapshot({ ...baseInput(v1), versionIsNonString: true });
    expect(r).toMatchObject({ state: 'failed', code: 'snapshot-version-not-string' });
  });

  it('malformed keys and signatures fail with a code, never a throw', async () => {
    const cases: Array<[Partial<{ publicKey: string; signature: string }>, string]> = [
      [{ publicKey: 'no!pe' }, 'snapshot-key-base64'],
      [{ publicKey: encodeBase64(new Uint8Array(31)) }, 'snapshot-key-length'],
      [{ publicKey: encodeBase64(hex('0100000000000000000000000000000000000000000000000000000000000000')) }, 'snapshot-key-small-order'],
      [{ signature: v1.signature_b64.replace(/=+$/, '') }, 'snapshot-signature-base64'],
      [{ signature: encodeBase64(new Uint8Array(63)) }, 'snapshot-signature-length'],
      [{ signature: (doc.vectors[0] as Vector).signature_b64 }, 'snapshot-signature-invalid'],
      [{ publicKey: 'RMM5VHIl8m8TL3FUY7LMb++o2uye6CiJLCA/XbSp3l8=' }, 'snapshot-signature-invalid'],
    ];
    for (const [patch, code] of cases) {
      const r = await verifySnapshot({ ...baseInput(v1), ...patch });
      expect(r.state, code).toBe('failed');
      expect(r.code, code).toBe(code);
      expect(r.revision).toBe(v1.revision);
    }
  });

  it('refuses file sets that break the rules', () => {
    const skill = new Uint8Array([0x23]);
    const code = (entries: Array<[string, Uint8Array]>): string => {
      const r = snapshotRevisionInput(new Map(entries));
      return r.ok ? 'ok' : r.code;
    };
    expect(code([['SKILL.md', skill]])).toBe('ok');
    expect(code([])).toBe('snapshot-empty');
    expect(code([['README.md', skill]])).toBe('snapshot-no-skill-md');
    expect(code([['skill.md', skill]])).toBe('snapshot-no-skill-md');
    for (const bad of ['a\\b.md', 'C:x.md', 'a\u0000b', '', '/abs.md', 'a//b.md', 'dir/', './x.md', 'a/../b.md', '..', '.']) {
      expect(
        code([
          ['SKILL.md', skill],
          [bad, skill],
        ]),
        JSON.stringify(bad),
      ).toBe('snapshot-bad-path');
    }
    const many: Array<[string, Uint8Array]> = [['SKILL.md', skill]];
    for (let i = 0; i < 512; i++) many.push([`f/${i}.md`, skill]);
    expect(code(many)).toBe('snapshot-too-many-files');
    expect(code(many.slice(0, 512))).toBe('ok');
    const big = new Uint8Array(16 * 1024 * 1024);
    expect(
      code([
        ['SKILL.md', skill],
        ['big.bin', big],
      ]),
    ).toBe('snapshot-too-large');
    expect(
      code([
        ['SKILL.md', new Uint8Array(0)],
        ['big.bin', big],
      ]),
    ).toBe('ok');
  });

  it('a bad file set gives a failed report, not a throw', async () => {
    const r = await verifySnapshot({ ...baseInput(v1), files: new Map([['a/../SKILL.md', new Uint8Array(1)]]) });
    expect(r.state).toBe('failed');
    expect(r.revision).toBeNull();
  });
});

describe('ASCII-only JSON', () => {
  it('escapes like ensure_ascii with lowercase hex', () => {
    expect(asciiJsonString('café')).toBe('"caf\\u00e9"');
    expect(asciiJsonString('\u{1F600}')).toBe('"\\ud83d\\ude00"');
    expect(asciiJsonString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(asciiJsonString('\n\r\t\b\f')).toBe('"\\n\\r\\t\\b\\f"');
    expect(asciiJsonString('\u0000\u001f\u007f\u0080')).toBe('"\\u0000\\u001f\\u007f\\u0080"');
    expect(asciiJsonString('\uFF21 /<>')).toBe('"\\uff21 /<>"');
  });

  it('compares by code point', () => {
    expect(compareCodePoints('\uFF21', '\u{1F600}')).toBe(-1);
    expect(compareCodePoints('\u{1F600}', '\uFF21')).toBe(1);
    expect(compareCodePoints('Z.md', 'references/a')).toBe(-1);
    expect(compareCodePoints('a', 'ab')).toBe(-1);
    expect(compareCodePoints('ab', 'a')).toBe(1);
    expect(compareCodePoints('same', 'same')).toBe(0);
    expect(compareCodePoints('', '')).toBe(0);
  });
});
