// Zip reader for the in-memory unpack (FORMATS.md §6.3–6.4).
//
// The central directory and the local headers are parsed here rather than by a library because the
// safety rules need raw header fields that zip libraries hide or reconcile silently: general-purpose
// flags (encryption, data descriptor), the host that made an entry and its external attributes
// (symlinks, devices), and both copies of name, method, flags, CRC and sizes so that a local header
// disagreeing with the central directory is refused instead of one of them winning. Decompression is
// fflate's streaming Inflate, bounded by the byte cap (archive-inflate.ts).
import type { ArchiveEntry } from '../types';
import { crc32 } from './archive-crc32';
import { inflateRawBounded } from './archive-inflate';
import type { ArchiveLimits, Unpacked } from './archive-limits';
import { ARCHIVE_ROOT, checkEntryName, decodeName, invalid, NameRegistry, showName, tooLarge, unsupported, type ArchiveFailure } from './archive-names';

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_END64_LOCATOR = 0x07064b50;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
const METHOD_AES = 99;

const HOST_UNIX = 3;
const HOST_DARWIN = 19;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;

class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  has(at: number, length: number): boolean {
    return Number.isSafeInteger(at) && at >= 0 && length >= 0 && at + length <= this.bytes.length;
  }
  u16(at: number): number {
    return this.view.getUint16(at, true);
  }
  u32(at: number): number {
    return this.view.getUint32(at, true);
  }
  /** A 64-bit field as a number; Infinity above 2^53 (always over any cap). */
  u64(at: number): number {
    const low = this.view.getUint32(at, true);
    const high = this.view.getUint32(at + 4, true);
    return high > 0x1fffff ? Number.POSITIVE_INFINITY : high * 0x100000000 + low;
  }
}

interface CentralEntry {
  nameBytes: Uint8Array;
  path: string;
  type: 'file' | 'directory';
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

interface EndRecord {
  entries: number;
  cdOffset: number;
  cdSize: number;
  /** Where the central directory must end (the end record, or the ZIP64 end record). */
  cdLimit: number;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function findEnd(r: Reader): EndRecord | ArchiveFailure {
  const length = r.bytes.length;
  let at = -1;
  for (let i = length - 22; i >= 0 && i >= length - 22 - 0xffff; i--) {
    if (r.u32(i) === SIG_END && i + 22 + r.u16(i + 20) === length) {
      at = i;
      break;
    }
  }
  if (at < 0) return invalid('zip-no-end-record', 'The zip file has no end-of-central-directory record (it is truncated or not a zip file).');
  const disk = r.u16(at + 4);
  const cdDisk = r.u16(at + 6);
  let onDisk = r.u16(at + 8);
  let entries = r.u16(at + 10);
  let cdSize = r.u32(at + 12);
  let cdOffset = r.u32(at + 16);
  let cdLimit = at;
  const needs64 = onDisk === 0xffff || entries === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff;
  if (needs64 || (at >= 20 && r.u32(at - 20) === SIG_END64_LOCATOR)) {
    if (!(at >= 20 && r.u32(at - 20) === SIG_END64_LOCATOR)) return invalid('zip-bad-offset', 'The zip end record needs a ZIP64 end record that is missing.');
    const end64 = r.u64(at - 20 + 8);
    if (!r.has(end64, 56) || end64 > at - 20 || r.u32(end64) !== SIG_END64) {
      return invalid('zip-bad-offset', 'The ZIP64 end record is not where its locator points.');
    }
    if (r.u32(at - 20 + 4) !== 0 || r.u32(at - 20 + 16) > 1 || r.u32(end64 + 16) !== 0 || r.u32(end64 + 20) !== 0) {
      return unsupported('zip-multi-disk', 'Zip files split over several disks are not supported.');
    }
    if (onDisk === 0xffff) onDisk = r.u64(end64 + 24);
    if (entries === 0xffff) entries = r.u64(end64 + 32);
    if (cdSize === 0xffffffff) cdSize = r.u64(end64 + 40);
    if (cdOffset === 0xffffffff) cdOffset = r.u64(end64 + 48);
    cdLimit = end64;
  } else if (disk !== 0 || cdDisk !== 0) {
    return unsupported('zip-multi-disk', 'Zip files split over several disks are not supported.');
  }
  if (onDisk !== entries) return unsupported('zip-multi-disk', 'Zip files split over several disks are not supported.');
  if (!Number.isSafeInteger(cdOffset) || !Number.isSafeInteger(cdSize) || cdOffset + cdSize > cdLimit) {
    return invalid('zip-bad-offset', 'The central directory lies outside the zip file.');
  }
  if (!Number.isSafeInteger(entries) || entries * 46 > cdSize) {
    return invalid('zip-bad-central-directory', 'The zip end record counts more entries than the central directory can hold.');
  }
  return { entries, cdOffset, cdSize, cdLimit };
}

/** The ZIP64 extended-information extra field (0x0001), if any. */
function zip64Field(r: Reader, start: number, length: number): { at: number; length: number } | null {
  let at = start;
  const end = start + length;
  while (at + 4 <= end) {
    const id = r.u16(at);
    const size = r.u16(at + 2);
    if (at + 4 + size > end) return null;
    if (id === 0x0001) return { at: at + 4, length: size };
    at += 4 + size;
  }
  return null;
}

/** Replace 0xFFFFFFFF sizes (and offset) by their ZIP64 values, in the order APPNOTE 4.5.3 gives. */
function applyZip64(r: Reader, extraStart: number, extraLength: number, values: { size: number; compressedSize: number; offset?: number }): boolean {
  const wanted = (['size', 'compressedSize', 'offset'] as const).filter((key) => values[key] === 0xffffffff);
  if (wanted.length === 0) return true;
  const field = zip64Field(r, extraStart, extraLength);
  if (!field) return false;
  let at = field.at;
  for (const key of wanted) {
    if (at + 8 > field.at + field.length) return false;
    values[key] = r.u64(at);
    at += 8;
  }
  return true;
}

function entryType(name: string, madeBy: number, external: number): { type: 'file' | 'directory' } | ArchiveFailure {
  const host = madeBy >>> 8;
  const isDirName = name.endsWith('/');
  if (host === HOST_UNIX || host === HOST_DARWIN) {
    const format = (external >>> 16) & S_IFMT;
    if (format === S_IFLNK) return invalid('archive-link', `The entry ${showName(name)} is a symbolic link.`);
    if (format !== 0 && format !== S_IFREG && format !== S_IFDIR) {
      return invalid('archive-special-entry', `The entry ${showName(name)} is not a regular file or a directory (a device, FIFO or socket).`);
    }
    if ((format === S_IFDIR && !isDirName) || (format === S_IFREG && isDirName)) {
      return invalid('zip-type-mismatch', `The entry ${showName(name)} has a name and a file type that disagree.`);
    }
  }
  if (external & DOS_DIRECTORY && !isDirName) {
    return invalid('zip-type-mismatch', `The entry ${showName(name)} is marked as a directory but its name does not end in "/".`);
  }
  return { type: isDirName ? 'directory' : 'file' };
}

/** Where a refused symbolic link pointed: its data (stored, or deflated within 4 KiB), for the message. */
function linkTarget(r: Reader, central: number): string | null {
  const local = r.u32(central + 42);
  const compressed = r.u32(central + 20);
  if (!r.has(local, 30) || r.u32(local) !== SIG_LOCAL) return null;
  const dataStart = local + 30 + r.u16(local + 26) + r.u16(local + 28);
  if (!r.has(dataStart, compressed) || compressed > 4096) return null;
  const raw = r.bytes.subarray(dataStart, dataStart + compressed);
  const method = r.u16(central + 10);
  if (method === METHOD_STORED) return decodeName(raw);
  if (method !== METHOD_DEFLATED) return null;
  const out = inflateRawBounded(raw, 4096);
  return out.ok ? decodeName(out.bytes) : null;
}

function linkRefused(r: Reader, central: number, name: string): ArchiveFailure {
  const target = linkTarget(r, central);
  return invalid('archive-link', `The entry ${showName(name)} is a symbolic link${target === null ? '' : ` to ${showName(target)}`}.`);
}

function readCentral(r: Reader, end: EndRecord, limits: ArchiveLimits): CentralEntry[] | ArchiveFailure {
  const list: CentralEntry[] = [];
  const names = new NameRegistry();
  let at = end.cdOffset;
  const cdEnd = end.cdOffset + end.cdSize;
  for (let i = 0; i < end.entries; i++) {
    if (at + 46 > cdEnd || r.u32(at) !== SIG_CENTRAL) return invalid('zip-bad-central-directory', `Central directory entry ${i + 1} is missing or damaged.`);
    const madeBy = r.u16(at + 4);
    const flags = r.u16(at + 8);
    const method = r.u16(at + 10);
    const nameLength = r.u16(at + 28);
    const extraLength = r.u16(at + 30);
    const commentLength = r.u16(at + 32);
    const external = r.u32(at + 38);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > cdEnd) return invalid('zip-bad-central-directory', `Central directory entry ${i + 1} runs past the directory.`);
    const nameBytes = r.bytes.subarray(at + 46, at + 46 + nameLength);
    const name = decodeName(nameBytes);
    if (name === null) return invalid('archive-name-encoding', `The name of entry ${i + 1} is not valid UTF-8.`);
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION) || method === METHOD_AES) {
      return invalid('zip-encrypted', `The entry ${showName(name)} is encrypted.`);
    }
    const kind = entryType(name, madeBy, external);
    if ('ok' in kind) return kind.code === 'archive-link' ? linkRefused(r, at, name) : kind;
    const checked = checkEntryName(name, kind.type === 'directory', 'name', true);
    if (!checked.ok) return checked;
    if (checked.path === ARCHIVE_ROOT) {
      // The archive's own root (`./`): nothing to unpack.
      at = next;
      continue;
    }
    const refused = names.admit(checked.path, kind.type, limits);
    if (refused) return refused;
    if (method !== METHOD_STORED && method !== METHOD_DEFLATED) {
      return unsupported('zip-method-unsupported', `The entry ${showName(name)} uses compression method ${method}; only stored and deflate are supported.`);
    }
    const values: { size: number; compressedSize: number; offset?: number } = { size: r.u32(at + 24), compressedSize: r.u32(at + 20), offset: r.u32(at + 42) };
    if (!applyZip64(r, at + 46 + nameLength, extraLength, values)) {
      return invalid('zip-bad-central-directory', `The entry ${showName(name)} lacks the ZIP64 sizes its header announces.`);
    }
    if (values.size > limits.maxBytes) {
      return tooLarge('archive-too-large', `The entry ${showName(name)} declares ${values.size} bytes, over the ${limits.maxBytes}-byte cap.`);
    }
    if (kind.type === 'directory' && values.size !== 0) return invalid('zip-directory-has-data', `The directory entry ${showName(name)} has contents.`);
    list.push({
      nameBytes,
      path: checked.path,
      type: kind.type,
      flags,
      method,
      crc: r.u32(at + 16),
      compressedSize: values.compressedSize,
      size: values.size,
      localOffset: values.offset ?? 0,
    });
    at = next;
  }
  if (at !== cdEnd) return invalid('zip-bad-central-directory', 'The central directory size does not match its entries.');
  return list;
}

interface Located {
  entry: CentralEntry;
  dataStart: number;
  dataEnd: number;
}

function mismatch(entry: CentralEntry, field: string): ArchiveFailure {
  return invalid('zip-header-mismatch', `The local header of ${showName(entry.path)} disagrees with the central directory (${field}).`);
}

function locate(r: Reader, entry: CentralEntry, cdOffset: number): Located | ArchiveFailure {
  const at = entry.localOffset;
  if (!r.has(at, 30) || at + 30 > cdOffset || r.u32(at) !== SIG_LOCAL) {
    return invalid('zip-bad-offset', `The local header of ${showName(entry.path)} is not where the central directory says.`);
  }
  const flags = r.u16(at + 6);
  const method = r.u16(at + 8);
  const nameLength = r.u16(at + 26);
  const extraLength = r.u16(at + 28);
  const dataStart = at + 30 + nameLength + extraLength;
  if (dataStart > cdOffset) return invalid('zip-bad-offset', `The local header of ${showName(entry.path)} runs into the central directory.`);
  if (!sameBytes(r.bytes.subarray(at + 30, at + 30 + nameLength), entry.nameBytes)) return mismatch(entry, 'name');
  if (flags !== entry.flags) return mismatch(entry, 'flags');
  if (method !== entry.method) return mismatch(entry, 'method');
  if (!(flags & FLAG_DATA_DESCRIPTOR)) {
    const values = { size: r.u32(at + 22), compressedSize: r.u32(at + 18) };
    if (!applyZip64(r, at + 30 + nameLength, extraLength, values)) return mismatch(entry, 'ZIP64 sizes');
    if (r.u32(at + 14) !== entry.crc) return mismatch(entry, 'CRC-32');
    if (values.compressedSize !== entry.compressedSize) return mismatch(entry, 'compressed size');
    if (values.size !== entry.size) return mismatch(entry, 'size');
  }
  const dataEnd = dataStart + entry.compressedSize;
  if (!Number.isSafeInteger(dataEnd) || dataEnd > cdOffset) {
    return invalid('zip-bad-offset', `The data of ${showName(entry.path)} runs past the start of the central directory.`);
  }
  return { entry, dataStart, dataEnd };
}

/** Read a whole zip file into memory under the caps; never throws for malformed input. */
export function readZip(bytes: Uint8Array, limits: ArchiveLimits): Unpacked | ArchiveFailure {
  const r = new Reader(bytes);
  const end = findEnd(r);
  if ('ok' in end) return end;
  const central = readCentral(r, end, limits);
  if (!Array.isArray(central)) return central;

  const located: Located[] = [];
  for (const entry of central) {
    const place = locate(r, entry, end.cdOffset);
    if ('ok' in place) return place;
    located.push(place);
  }
  // Two entries sharing or overlapping bytes (a known way to multiply a small input) are refused.
  const byOffset = [...located].sort((a, b) => a.entry.localOffset - b.entry.localOffset);
  for (let i = 1; i < byOffset.length; i++) {
    const before = byOffset[i - 1] as Located;
    const current = byOffset[i] as Located;
    if (current.entry.localOffset < before.dataEnd) {
      return invalid('zip-overlapping-entries', `The entries ${showName(before.entry.path)} and ${showName(current.entry.path)} overlap.`);
    }
  }

  const entries: ArchiveEntry[] = [];
  const files = new Map<string, Uint8Array>();
  let used = 0;
  for (const { entry, dataStart, dataEnd } of located) {
    const budget = limits.maxBytes - used;
    const raw = bytes.subarray(dataStart, dataEnd);
    let data: Uint8Array;
    if (entry.method === METHOD_STORED) {
      if (raw.length > budget) return tooLarge('archive-too-large', `The archive unpacks to more than ${limits.maxBytes} bytes.`);
      data = raw.slice();
    } else {
      const out = inflateRawBounded(raw, budget);
      if (!out.ok) {
        if (out.reason === 'over-cap') return tooLarge('archive-too-large', `The archive unpacks to more than ${limits.maxBytes} bytes.`);
        return invalid('zip-corrupt-data', `The compressed data of ${showName(entry.path)} is damaged (${out.detail}).`);
      }
      data = out.bytes;
    }
    if (data.length !== entry.size) {
      return invalid('zip-size-mismatch', `The entry ${showName(entry.path)} unpacks to ${data.length} bytes, not the ${entry.size} its header declares.`);
    }
    if (crc32(data) !== entry.crc) return invalid('zip-crc-mismatch', `The CRC-32 of ${showName(entry.path)} does not match its contents.`);
    used += data.length;
    entries.push({ path: entry.path, size: data.length, type: entry.type });
    if (entry.type === 'file') files.set(entry.path, data);
  }
  return { ok: true, entries, files };
}
