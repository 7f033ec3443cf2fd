import { describe, expect, it } from 'vitest';
import { decodeJson, encodeFrame, FrameReader } from '../../../host/framing';

const frame = (body: Buffer): Buffer => {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
};

describe('native-messaging frames', () => {
  it('reads frames split anywhere, several per chunk', () => {
    const all = Buffer.concat([frame(Buffer.from('{"a":1}')), frame(Buffer.from('{"b":"ü"}'))]);
    for (let cut = 0; cut <= all.length; cut++) {
      const r = new FrameReader(1000);
      const got = [...r.push(all.subarray(0, cut)), ...r.push(all.subarray(cut))];
      expect(got.map((f) => (f.kind === 'message' ? f.bytes.toString() : f.kind))).toEqual(['{"a":1}', '{"b":"ü"}']);
      expect(r.idle).toBe(true);
    }
  });

  it('skips an oversized frame as it streams and reads the next one', () => {
    const r = new FrameReader(10);
    const big = frame(Buffer.alloc(50, 0x61));
    const next = frame(Buffer.from('{}'));
    const out = [...r.push(big.subarray(0, 20)), ...r.push(big.subarray(20)), ...r.push(next)];
    expect(out.map((f) => f.kind)).toEqual(['too-large', 'message']);
    expect(out[0]).toEqual({ kind: 'too-large', length: 50 });
  });

  it('encodes little-endian length and refuses over the 1 MB limit', () => {
    const f = encodeFrame({ x: 'y' }) as Buffer;
    expect(f.readUInt32LE(0)).toBe(f.length - 4);
    expect(JSON.parse(f.subarray(4).toString())).toEqual({ x: 'y' });
    expect(encodeFrame({ s: 'x'.repeat(1024 * 1024) })).toBeNull();
  });

  it('refuses bytes that are not UTF-8 JSON', () => {
    expect(decodeJson(Buffer.from('{"a":'))).toEqual({ ok: false });
    expect(decodeJson(Buffer.from([0x7b, 0xff, 0x7d]))).toEqual({ ok: false });
    expect(decodeJson(Buffer.from('[1]'))).toEqual({ ok: true, value: [1] });
  });
});
