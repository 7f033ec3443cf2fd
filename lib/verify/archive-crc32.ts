// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zip entries and gzip trailers use it.

const TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Incremental CRC-32: feed chunks with `update`, read the value with `digest`. */
export class Crc32 {
  private state = 0xffffffff;

  update(bytes: Uint8Array): this {
    let c = this.state;
    for (let i = 0; i < bytes.length; i++) {
      c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
    }
    this.state = c;
    return this;
  }

  digest(): number {
    return (this.state ^ 0xffffffff) >>> 0;
  }
}

export function crc32(bytes: Uint8Array): number {
  return new Crc32().update(bytes).digest();
}
