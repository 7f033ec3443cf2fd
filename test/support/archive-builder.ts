// Builds zip and tar.gz archives in memory for tests, well-formed or malformed on purpose: every
// header field the archive reader checks can be set or overridden here. Used by the archive unit
// tests and by suites that serve hostile publishers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, gzipSync } from 'fflate';
import { crc32 } from '../../lib/verify/archive-crc32';

const encoder = new TextEncoder();

export type Bytes = Uint8Array;

function toBytes(data: string | Uint8Array | undefined): Uint8Array {
  if (data === undefined) return new Uint8Array(0);
  return typeof data === 'string' ? encoder.encode(data) : data;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

class Writer {
  private readonly parts: number[] = [];
  u16(v: number): this {
    this.parts.push(v & 0xff, (v >>> 8) & 0xff);
    return this;
  }
  u32(v: number): this {
    this.parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    return this;
  }
  u64(v: number): this {
    this.u32(v % 0x100000000);
    this.u32(Math.floor(v / 0x100000000));
    return this;
  }
  bytes(b: Uint8Array): this {
    for (const x of b) this.parts.push(x);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

// ---------------------------------------------------------------------------
// Sample skill contents
// ---------------------------------------------------------------------------

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/archives/', import.meta.url));
export const SAMPLE_SKILLS_DIR = join(FIXTURES_DIR, 'sample-skills');

export interface FileSpec {
  /** `/`-separated path inside the skill. */
  name: string;
  data: Uint8Array;
}

/**
 * The files of one sample skill directory (e.g. `code-review`, `acme/billing/refunds`), SKILL.md
 * first, then the rest sorted by path.
 */
export function sampleSkill(dir: string): FileSpec[] {
  const root = join(SAMPLE_SKILLS_DIR, ...dir.split('/'));
  const out: FileSpec[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ name: relative(root, full).split(sep).join('/'), data: new Uint8Array(readFileSync(full)) });
    }
  };
  walk(root);
  return out.sort((a, b) => (a.name === 'SKILL.md' ? -1 : b.name === 'SKILL.md' ? 1 : a.name < b.name ? -1 : 1));
}

/** Directory names implied by a file list (`a/b/c.md` → `a/`, `a/b/`), in first-use order. */
export function impliedDirectories(files: { name: string }[]): string[] {
  const dirs: string[] = [];
  for (const f of files) {
    const parts = f.name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = `${parts.slice(0, i).join('/')}/`;
      if (!dirs.includes(d)) dirs.push(d);
    }
  }
  return dirs;
}

// ---------------------------------------------------------------------------
// Zip
// ---------------------------------------------------------------------------

export interface ZipHeaderOverrides {
  name?: string | Uint8Array;
  flags?: number;
  method?: number;
  crc?: number;
  compressedSize?: number;
  size?: number;
  /** Replaces the whole extra field. */
  extra?: Uint8Array;
}

export interface ZipEntrySpec {
  name: string | Uint8Array;
  data?: string | Uint8Array;
  /** 0 stored, 8 deflate (default 8 for files with data, 0 otherwise); other values are written as-is. */
  method?: number;
  /** Already-compressed bytes written instead of compressing `data` (sizes and CRC still come from `data`). */
  compressed?: Uint8Array;
  /** Unix mode including the file-type bits (e.g. 0o120777 for a symlink); sets host Unix. */
  mode?: number;
  /** Raw external attributes (wins over `mode`). */
  externalAttributes?: number;
  /** "Version made by" (host in the upper byte). Default: Unix 3.0 when `mode` is set, else MS-DOS 2.0. */
  madeBy?: number;
  /** Sets general-purpose bit 0 (traditional encryption) in both headers. */
  encrypted?: boolean;
  /** Extra general-purpose flags for both headers. */
  flags?: number;
  /** Write sizes and CRC in a data descriptor after the data (bit 3), zeros in the local header. */
  dataDescriptor?: boolean;
  /** Write sizes (and offset) through a ZIP64 extra field in both headers. */
  zip64?: boolean;
  /** Central directory fields that differ from the truth. */
  central?: ZipHeaderOverrides;
  /** Local header fields that differ from the truth. */
  local?: ZipHeaderOverrides;
  /** Point the central directory at another entry's local header (by index). */
  localOffsetOf?: number;
  /** Absolute local-header offset written in the central directory. */
  localOffset?: number;
  /** Write no local record for this entry (it exists only in the central directory). */
  omitLocal?: boolean;
}

export interface ZipOptions {
  /** Leave out the end-of-central-directory record. */
  omitEnd?: boolean;
  /** Entry counts written in the end record (default: the real count). */
  endEntryCount?: number;
  /** Added to the central directory offset written in the end record. */
  centralOffsetDelta?: number;
  /** Archive comment. */
  comment?: string;
  /** Write a ZIP64 end record and locator (end record fields set to 0xFFFF / 0xFFFFFFFF). */
  zip64End?: boolean;
  /** Cut the finished archive to this many bytes. */
  truncateTo?: number;
  /** Bytes appended after the end record. */
  trailing?: Uint8Array;
  /** DEFLATE level for the entries (default 9); lower is faster when many archives are built. */
  level?: DeflateLevel;
}

type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

function zip64Extra(size: number, compressedSize: number, offset?: number): Uint8Array {
  const w = new Writer()
    .u16(0x0001)
    .u16(offset === undefined ? 16 : 24)
    .u64(size)
    .u64(compressedSize);
  if (offset !== undefined) w.u64(offset);
  return w.done();
}

/** Build a zip file. Entries appear in the given order, locally and in the central directory. */
export function buildZip(entries: ZipEntrySpec[], options: ZipOptions = {}): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  const offsets: number[] = [];
  let offset = 0;
  const prepared = entries.map((e) => {
    const nameBytes = toBytes(e.name);
    const data = toBytes(e.data);
    const method = e.method ?? (data.length > 0 ? 8 : 0);
    const body = e.compressed ?? (method === 8 ? deflateSync(data, { level: options.level ?? 9 }) : data);
    const flags = (e.flags ?? 0) | (e.encrypted ? 1 : 0) | (e.dataDescriptor ? 8 : 0) | (typeof e.name === 'string' && /[^\x00-\x7f]/.test(e.name) ? 0x800 : 0);
    return { e, nameBytes, data, method, body, flags, crc: crc32(data) };
  });

  for (const p of prepared) {
    offsets.push(offset);
    if (p.e.omitLocal) continue;
    const lo = p.e.local ?? {};
    const lName = lo.name !== undefined ? toBytes(lo.name) : p.nameBytes;
    const truthSize = p.data.length;
    const truthCompressed = p.body.length;
    let lCrc = lo.crc ?? p.crc;
    let lSize = lo.size ?? truthSize;
    let lCompressed = lo.compressedSize ?? truthCompressed;
    let lExtra = lo.extra ?? new Uint8Array(0);
    if (p.e.dataDescriptor && lo.crc === undefined) lCrc = 0;
    if (p.e.dataDescriptor && lo.size === undefined) lSize = 0;
    if (p.e.dataDescriptor && lo.compressedSize === undefined) lCompressed = 0;
    if (p.e.zip64 && lo.extra === undefined) {
      lExtra = zip64Extra(lSize, lCompressed);
      lSize = 0xffffffff;
      lCompressed = 0xffffffff;
    }
    const local = new Writer()
      .u32(0x04034b50)
      .u16(p.e.zip64 ? 45 : 20)
      .u16(lo.flags ?? p.flags)
      .u16(lo.method ?? p.method)
      .u16(0)
      .u16(0x21)
      .u32(lCrc)
      .u32(lCompressed)
      .u32(lSize)
      .u16(lName.length)
      .u16(lExtra.length)
      .bytes(lName)
      .bytes(lExtra)
      .bytes(p.body);
    if (p.e.dataDescriptor) {
      local.u32(0x08074b50).u32(p.crc);
      if (p.e.zip64) local.u64(truthCompressed).u64(truthSize);
      else local.u32(truthCompressed).u32(truthSize);
    }
    const bytes = local.done();
    locals.push(bytes);
    offset += bytes.length;
  }

  const centralStart = offset;
  prepared.forEach((p, i) => {
    const ce = p.e.central ?? {};
    const cName = ce.name !== undefined ? toBytes(ce.name) : p.nameBytes;
    let size = ce.size ?? p.data.length;
    let compressedSize = ce.compressedSize ?? p.body.length;
    let localOffset = p.e.localOffset ?? (p.e.localOffsetOf !== undefined ? (offsets[p.e.localOffsetOf] ?? 0) : (offsets[i] ?? 0));
    let extra = ce.extra ?? new Uint8Array(0);
    if (p.e.zip64 && ce.extra === undefined) {
      extra = zip64Extra(size, compressedSize, localOffset);
      size = 0xffffffff;
      compressedSize = 0xffffffff;
      localOffset = 0xffffffff;
    }
    let external = p.e.externalAttributes;
    let madeBy = p.e.madeBy;
    if (external === undefined) {
      if (p.e.mode !== undefined) external = ((p.e.mode & 0xffff) << 16) >>> 0;
      else external = typeof p.e.name === 'string' && p.e.name.endsWith('/') ? 0x10 : 0;
    }
    if (madeBy === undefined) madeBy = p.e.mode !== undefined ? (3 << 8) | 30 : 20;
    const central = new Writer()
      .u32(0x02014b50)
      .u16(madeBy)
      .u16(p.e.zip64 ? 45 : 20)
      .u16(ce.flags ?? p.flags)
      .u16(ce.method ?? p.method)
      .u16(0)
      .u16(0x21)
      .u32(ce.crc ?? p.crc)
      .u32(compressedSize)
      .u32(size)
      .u16(cName.length)
      .u16(extra.length)
      .u16(0)
      .u16(0)
      .u16(0)
      .u32(external)
      .u32(localOffset)
      .bytes(cName)
      .bytes(extra)
      .done();
    centrals.push(central);
    offset += central.length;
  });
  const centralSize = offset - centralStart;
  const count = options.endEntryCount ?? entries.length;
  const comment = toBytes(options.comment);
  const tail: Uint8Array[] = [];
  if (!options.omitEnd) {
    const writtenOffset = centralStart + (options.centralOffsetDelta ?? 0);
    if (options.zip64End) {
      const end64At = offset;
      tail.push(
        new Writer()
          .u32(0x06064b50)
          .u64(44)
          .u16((3 << 8) | 45)
          .u16(45)
          .u32(0)
          .u32(0)
          .u64(count)
          .u64(count)
          .u64(centralSize)
          .u64(writtenOffset)
          .done(),
        new Writer().u32(0x07064b50).u32(0).u64(end64At).u32(1).done(),
      );
    }
    const z = options.zip64End;
    tail.push(
      new Writer()
        .u32(0x06054b50)
        .u16(0)
        .u16(0)
        .u16(z ? 0xffff : count)
        .u16(z ? 0xffff : count)
        .u32(z ? 0xffffffff : centralSize)
        .u32(z ? 0xffffffff : writtenOffset)
        .u16(comment.length)
        .bytes(comment)
        .done(),
    );
  }
  let out = concat([...locals, ...centrals, ...tail, options.trailing ?? new Uint8Array(0)]);
  if (options.truncateTo !== undefined) out = out.slice(0, options.truncateTo);
  return out;
}

/** The local record (header, data, descriptor) of a single entry, as buildZip writes it. */
export function zipLocalRecord(entry: ZipEntrySpec): Uint8Array {
  const whole = buildZip([entry]);
  const view = new DataView(whole.buffer, whole.byteOffset, whole.byteLength);
  const centralStart = view.getUint32(whole.length - 6, true);
  return whole.slice(0, centralStart);
}

/** A zip of a file list, with explicit directory entries, as a typical Unix zip tool makes it. */
export function zipOfFiles(files: FileSpec[], options: { directories?: boolean; unixModes?: boolean } = {}): Uint8Array {
  const entries: ZipEntrySpec[] = [];
  if (options.directories !== false) {
    for (const d of impliedDirectories(files)) entries.push(options.unixModes === false ? { name: d } : { name: d, mode: 0o040755 });
  }
  for (const f of files) entries.push(options.unixModes === false ? { name: f.name, data: f.data } : { name: f.name, data: f.data, mode: 0o100644 });
  return buildZip(entries);
}

// ---------------------------------------------------------------------------
// tar and gzip
// ---------------------------------------------------------------------------

export interface TarEntrySpec {
  name: string;
  data?: string | Uint8Array;
  /** One character: '0' (default for files), '5' (default when the name ends in '/'), '1', '2', 'x', … */
  typeflag?: string;
  linkname?: string;
  mode?: number;
  /** Size written in the header (default: the data length). The data written is always `data`. */
  headerSize?: number;
  /** Write the size field in GNU base-256 form. */
  base256Size?: boolean;
  /** Precede the entry with a PAX 'x' header holding these records. */
  pax?: Record<string, string>;
  /** Precede the entry with a GNU 'L' long-name header holding this name. */
  longName?: string;
  /** Precede the entry with a GNU 'K' long-link header. */
  longLink?: string;
  /** ustar prefix field (POSIX format only). */
  prefix?: string;
  /** Raw bytes for the 100-byte name field (wins over `name`). */
  rawName?: Uint8Array;
  /** Header format: POSIX ustar (default), GNU, or old v7 (no magic). */
  format?: 'ustar' | 'gnu' | 'v7';
  /** Write a wrong checksum. */
  badChecksum?: boolean;
}

export interface TarOptions {
  /** Zero blocks written at the end (default 2). */
  endBlocks?: number;
  /** Pad the stream with zeros to a multiple of this many bytes (tar's record size), after the end blocks. */
  recordSize?: number;
  /** Bytes appended after the end blocks (and padding). */
  trailing?: Uint8Array;
  /** Cut the tar stream to this many bytes. */
  truncateTo?: number;
}

function octal(value: number, width: number): Uint8Array {
  const text = value.toString(8).padStart(width - 1, '0');
  return encoder.encode(`${text}\u0000`);
}

function paxData(records: Record<string, string>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [key, value] of Object.entries(records)) {
    const body = encoder.encode(` ${key}=${value}\n`);
    let length = body.length + 1;
    while (String(length).length + body.length !== length) length = String(length).length + body.length;
    parts.push(encoder.encode(String(length)), body);
  }
  return concat(parts);
}

function tarHeader(spec: {
  nameBytes: Uint8Array;
  typeflag: string;
  size: number;
  base256?: boolean;
  mode: number;
  linkname?: string;
  prefix?: string;
  format: 'ustar' | 'gnu' | 'v7';
  badChecksum?: boolean;
}): Uint8Array {
  const h = new Uint8Array(512);
  h.set(spec.nameBytes.subarray(0, 100), 0);
  h.set(octal(spec.mode, 8), 100);
  h.set(octal(0, 8), 108);
  h.set(octal(0, 8), 116);
  if (spec.base256) {
    h[124] = 0x80;
    let v = spec.size;
    for (let i = 135; i > 124; i--) {
      h[i] = v % 256;
      v = Math.floor(v / 256);
    }
  } else {
    h.set(octal(spec.size, 12), 124);
  }
  h.set(octal(0, 12), 136);
  h[156] = spec.typeflag.charCodeAt(0);
  if (spec.linkname) h.set(encoder.encode(spec.linkname).subarray(0, 100), 157);
  if (spec.format === 'ustar') {
    h.set(encoder.encode('ustar\u000000'), 257);
    if (spec.prefix) h.set(encoder.encode(spec.prefix).subarray(0, 155), 345);
  } else if (spec.format === 'gnu') {
    h.set(encoder.encode('ustar  \u0000'), 257);
  }
  if (spec.format !== 'v7') {
    h.set(encoder.encode('root'), 265);
    h.set(encoder.encode('root'), 297);
  }
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  if (spec.badChecksum) sum += 1;
  h.set(encoder.encode(`${sum.toString(8).padStart(6, '0')}\u0000 `), 148);
  return h;
}

function padded(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 512) * 512);
  out.set(data);
  return out;
}

/** Build an uncompressed tar stream. */
export function buildTar(entries: TarEntrySpec[], options: TarOptions = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const format = e.format ?? 'ustar';
    if (e.pax) {
      const data = paxData(e.pax);
      parts.push(tarHeader({ nameBytes: encoder.encode('PaxHeader/entry'), typeflag: 'x', size: data.length, mode: 0o644, format }), padded(data));
    }
    for (const [flag, text] of [
      ['L', e.longName],
      ['K', e.longLink],
    ] as const) {
      if (text === undefined) continue;
      const data = encoder.encode(`${text}\u0000`);
      parts.push(tarHeader({ nameBytes: encoder.encode('././@LongLink'), typeflag: flag, size: data.length, mode: 0o644, format: 'gnu' }), padded(data));
    }
    const data = toBytes(e.data);
    const typeflag = e.typeflag ?? (e.name.endsWith('/') ? '5' : '0');
    parts.push(
      tarHeader({
        nameBytes: e.rawName ?? encoder.encode(e.name),
        typeflag,
        size: e.headerSize ?? data.length,
        base256: e.base256Size ?? false,
        mode: e.mode ?? (typeflag === '5' ? 0o755 : 0o644),
        ...(e.linkname !== undefined ? { linkname: e.linkname } : {}),
        ...(e.prefix !== undefined ? { prefix: e.prefix } : {}),
        format,
        badChecksum: e.badChecksum ?? false,
      }),
      padded(data),
    );
  }
  parts.push(new Uint8Array(512 * (options.endBlocks ?? 2)));
  let out = concat(parts);
  if (options.recordSize) {
    const size = Math.ceil(out.length / options.recordSize) * options.recordSize;
    const grown = new Uint8Array(size);
    grown.set(out);
    out = grown;
  }
  if (options.trailing) out = concat([out, options.trailing]);
  if (options.truncateTo !== undefined) out = out.slice(0, options.truncateTo);
  return out;
}

export interface GzipOptions {
  /** Split the input into this many gzip members (default 1). */
  members?: number;
  /** Bytes appended after the last member. */
  trailing?: Uint8Array;
  /** Cut the gzip stream to this many bytes. */
  truncateTo?: number;
  /** DEFLATE level (default 9); lower is faster when many archives are built. */
  level?: DeflateLevel;
}

/** gzip bytes, optionally as several concatenated members or malformed at the end. */
export function gzip(data: Uint8Array, options: GzipOptions = {}): Uint8Array {
  const members = Math.max(1, options.members ?? 1);
  const parts: Uint8Array[] = [];
  const step = Math.ceil(data.length / members);
  for (let i = 0; i < members; i++) {
    parts.push(gzipSync(data.subarray(i * step, Math.min(data.length, (i + 1) * step)), { level: options.level ?? 9, mtime: 0 }));
  }
  if (options.trailing) parts.push(options.trailing);
  let out = concat(parts);
  if (options.truncateTo !== undefined) out = out.slice(0, options.truncateTo);
  return out;
}

/** Build a tar.gz. */
export function buildTarGz(entries: TarEntrySpec[], options: TarOptions & { gzip?: GzipOptions } = {}): Uint8Array {
  return gzip(buildTar(entries, options), options.gzip);
}

/** A tar.gz of a file list, with directory entries, as a typical tar tool makes it. */
export function tarGzOfFiles(files: FileSpec[], options: { directories?: boolean } = {}): Uint8Array {
  const entries: TarEntrySpec[] = [];
  if (options.directories !== false) for (const d of impliedDirectories(files)) entries.push({ name: d });
  for (const f of files) entries.push({ name: f.name, data: f.data });
  return buildTarGz(entries);
}

// ---------------------------------------------------------------------------
// Ready-made hostile archives
// ---------------------------------------------------------------------------

/** A valid root SKILL.md so that only the hostile part decides the outcome. */
export const MINIMAL_SKILL_MD = encoder.encode('---\nname: hostile-fixture\ndescription: A skill used to carry a hostile archive entry.\n---\n\n# Hostile fixture\n');

/**
 * A zip whose `bomb.bin` inflates to `unpackedBytes` zeros from a few kilobytes. With `lyingSize`
 * both headers declare that size (and the CRC of that many zeros) instead of the truth.
 */
export function zipBomb(unpackedBytes: number, options: { lyingSize?: number } = {}): Uint8Array {
  const compressed = deflateSync(new Uint8Array(unpackedBytes), { level: 9 });
  const bomb: ZipEntrySpec = { name: 'bomb.bin', data: new Uint8Array(unpackedBytes), compressed };
  if (options.lyingSize !== undefined) {
    bomb.data = new Uint8Array(options.lyingSize);
  }
  return buildZip([{ name: 'SKILL.md', data: MINIMAL_SKILL_MD }, bomb]);
}

/** A tar.gz whose `bomb.bin` holds `unpackedBytes` zeros. */
export function tarGzBomb(unpackedBytes: number): Uint8Array {
  return buildTarGz([
    { name: 'SKILL.md', data: MINIMAL_SKILL_MD },
    { name: 'bomb.bin', data: new Uint8Array(unpackedBytes) },
  ]);
}
