// Native-messaging framing (docs/desktop.md): each message is a 4-byte little-endian length
// and then that many bytes of UTF-8 JSON, both ways. A frame over the limit is skipped as it
// streams in, never buffered, so the next message is read as usual.
import { MAX_MESSAGE_TO_BROWSER } from '../lib/desktop/protocol/limits';

export type Frame = { kind: 'message'; bytes: Buffer } | { kind: 'too-large'; length: number };

export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private expected: number | null = null;
  private skipping = 0;

  constructor(private readonly maxLength: number) {}

  /** Feeds bytes from stdin; returns every frame they complete. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let data = chunk;
    while (data.length > 0) {
      if (this.skipping > 0) {
        const n = Math.min(this.skipping, data.length);
        this.skipping -= n;
        data = data.subarray(n);
        continue;
      }
      this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
      data = Buffer.alloc(0);
      for (;;) {
        if (this.expected === null) {
          if (this.buffer.length < 4) break;
          const length = this.buffer.readUInt32LE(0);
          this.buffer = this.buffer.subarray(4);
          if (length > this.maxLength) {
            frames.push({ kind: 'too-large', length });
            const n = Math.min(length, this.buffer.length);
            this.skipping = length - n;
            data = this.buffer.subarray(n);
            this.buffer = Buffer.alloc(0);
            break;
          }
          this.expected = length;
        }
        if (this.buffer.length < this.expected) break;
        frames.push({ kind: 'message', bytes: Buffer.from(this.buffer.subarray(0, this.expected)) });
        this.buffer = this.buffer.subarray(this.expected);
        this.expected = null;
      }
    }
    return frames;
  }

  /** True when no frame is partly read (stdin may end cleanly here). */
  get idle(): boolean {
    return this.expected === null && this.skipping === 0 && this.buffer.length === 0;
  }
}

/** The frame for a message, or null when its JSON is over the browsers' 1 MB limit. */
export function encodeFrame(message: unknown, max = MAX_MESSAGE_TO_BROWSER): Buffer | null {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > max) return null;
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Parses a frame's bytes as UTF-8 JSON; undefined when they are not. */
export function decodeJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { ok: false };
  }
}
