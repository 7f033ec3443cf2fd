// Bounded decompression on top of fflate's streaming classes. Input is pushed in small slices and the
// output is counted after every slice, so a bomb is stopped after at most one slice's worth of
// expansion (DEFLATE expands at most ~1032:1, so about 4 MiB past the cap), never after the whole
// stream was inflated. Header sizes are never used to size anything here.
import { concatBytes } from '@noble/hashes/utils.js';
import { Gunzip, Inflate } from 'fflate';
import { Crc32 } from './archive-crc32';

/** Compressed bytes pushed per step: small enough to bound the overshoot, large enough to be fast. */
const SLICE = 4096;

export type InflateOutcome = { ok: true; bytes: Uint8Array; crc: number } | { ok: false; reason: 'over-cap' } | { ok: false; reason: 'truncated' | 'corrupt'; detail: string; libraryCode?: number };

interface PushStream {
  push(chunk: Uint8Array, final?: boolean): void;
}

/** Collects output chunks, their CRC-32 and their total length. */
class Sink {
  readonly chunks: Uint8Array[] = [];
  readonly crc = new Crc32();
  total = 0;

  take = (chunk: Uint8Array): void => {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.crc.update(chunk);
    this.total += chunk.length;
  };

  /** The chunks as one array (one per push of `drive`, so a few thousand at most). */
  join(): Uint8Array {
    return this.chunks.length === 1 ? (this.chunks[0] as Uint8Array) : concatBytes(...this.chunks);
  }
}

function failure(error: unknown): InflateOutcome {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : null;
  const detail = error instanceof Error ? error.message : String(error);
  // fflate code 0 is "unexpected EOF": the compressed data stops too early.
  if (code === 0) return { ok: false, reason: 'truncated', detail };
  return typeof code === 'number' ? { ok: false, reason: 'corrupt', detail, libraryCode: code } : { ok: false, reason: 'corrupt', detail };
}

/**
 * Push `input` through `stream` slice by slice; stop as soon as more than `cap` bytes came out or
 * `stop()` asks for it. `firstSlice` lets a caller hand over a whole header in the first push.
 */
function drive(stream: PushStream, sink: Sink, input: Uint8Array, cap: number, stop: () => boolean, firstSlice = SLICE): InflateOutcome | null {
  try {
    let at = 0;
    let slice = Math.max(firstSlice, 1);
    while (at < input.length) {
      const end = Math.min(at + slice, input.length);
      stream.push(input.subarray(at, end), false);
      at = end;
      slice = SLICE;
      if (sink.total > cap) return { ok: false, reason: 'over-cap' };
      if (stop()) return null;
    }
    stream.push(new Uint8Array(0), true);
    if (sink.total > cap) return { ok: false, reason: 'over-cap' };
    return null;
  } catch (error) {
    if (sink.total > cap) return { ok: false, reason: 'over-cap' };
    return failure(error);
  }
}

/** Inflate one raw DEFLATE stream (a zip entry), producing at most `cap` bytes. */
export function inflateRawBounded(input: Uint8Array, cap: number): InflateOutcome {
  const sink = new Sink();
  const stream = new Inflate(sink.take);
  const stopped = drive(stream, sink, input, cap, () => false);
  if (stopped) return stopped;
  return { ok: true, bytes: sink.join(), crc: sink.crc.digest() };
}

export type GunzipOutcome = InflateOutcome | { ok: false; reason: 'bad-header' | 'multiple-members' | 'trailing-data' | 'trailer-mismatch'; detail: string };

/** Length of a gzip member header (RFC 1952 §2.3), or a reason it is not acceptable. */
function gzipHeaderLength(input: Uint8Array): { ok: true; length: number } | { ok: false; detail: string } {
  if (input.length < 10) return { ok: false, detail: 'the gzip header is cut short' };
  if (input[0] !== 0x1f || input[1] !== 0x8b) return { ok: false, detail: 'the gzip magic bytes are missing' };
  if (input[2] !== 8) return { ok: false, detail: `compression method ${String(input[2])} is not DEFLATE` };
  const flags = input[3] as number;
  if (flags & 0xe0) return { ok: false, detail: 'reserved gzip header flags are set' };
  let at = 10;
  if (flags & 0x04) {
    if (input.length < at + 2) return { ok: false, detail: 'the gzip extra field is cut short' };
    at += 2 + ((input[at] as number) | ((input[at + 1] as number) << 8));
  }
  for (const bit of [0x08, 0x10]) {
    if (!(flags & bit)) continue;
    while (at < input.length && input[at] !== 0) at++;
    at++;
  }
  if (flags & 0x02) {
    if (input.length < at + 2) return { ok: false, detail: 'the gzip header CRC is cut short' };
    const expected = (input[at] as number) | ((input[at + 1] as number) << 8);
    const actual = new Crc32().update(input.subarray(0, at)).digest() & 0xffff;
    if (expected !== actual) return { ok: false, detail: 'the gzip header CRC does not match' };
    at += 2;
  }
  if (at > input.length) return { ok: false, detail: 'the gzip header is cut short' };
  return { ok: true, length: at };
}

/**
 * Decompress a gzip stream that must hold exactly one member, producing at most `cap` bytes.
 * fflate's Gunzip finds where the first member's DEFLATE data ends and reports a following member
 * through `onmember`; anything after the member that is not a gzip header makes it throw
 * "invalid gzip data" (the first header was already checked here, so that error can only come from
 * bytes after the first member). The trailer (CRC-32 and length of the output) must then be the
 * last eight bytes of the input, which also catches a cut-off trailer and up to three stray bytes.
 */
export function gunzipSingleMember(input: Uint8Array, cap: number): GunzipOutcome {
  const header = gzipHeaderLength(input);
  if (!header.ok) return { ok: false, reason: 'bad-header', detail: header.detail };
  const sink = new Sink();
  let members = 1;
  const stream = new Gunzip(sink.take);
  stream.onmember = () => {
    members++;
  };
  const stopped = drive(stream, sink, input, cap, () => members > 1, header.length + SLICE);
  if (members > 1) return { ok: false, reason: 'multiple-members', detail: 'the gzip stream has more than one member' };
  if (stopped) {
    // fflate code 6: a gzip header was expected and not found.
    if (!stopped.ok && stopped.reason === 'corrupt' && stopped.libraryCode === 6) {
      return { ok: false, reason: 'trailing-data', detail: 'bytes follow the gzip member' };
    }
    return stopped;
  }
  if (input.length < header.length + 8) return { ok: false, reason: 'truncated', detail: 'the gzip trailer is missing' };
  const crc = sink.crc.digest();
  const trailer = new DataView(input.buffer, input.byteOffset + input.length - 8, 8);
  const storedCrc = trailer.getUint32(0, true);
  const storedSize = trailer.getUint32(4, true);
  if (storedCrc !== crc || storedSize !== sink.total % 0x100000000) {
    return { ok: false, reason: 'trailer-mismatch', detail: 'the gzip trailer (CRC-32 and length) does not match the data, or the trailer is cut off' };
  }
  return { ok: true, bytes: sink.join(), crc };
}
