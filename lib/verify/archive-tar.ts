// tar.gz reader for the in-memory unpack (FORMATS.md §6.3–6.4).
//
// The gzip layer is fflate's streaming Gunzip, bounded by the byte cap and held to a single member
// (archive-inflate.ts). The tar headers are parsed here rather than by a library because the safety
// rules need the raw fields: the type flag of every block (links, devices, FIFOs, PAX and GNU
// extension headers), both the header name and any PAX `path` / GNU long name that replaces it,
// the PAX `size` that moves the next header, the checksum and the end-of-archive marker. Small tar
// libraries either resolve these for the caller or skip the blocks they do not know.
import type { ArchiveEntry } from '../types';
import { gunzipSingleMember, type GunzipOutcome } from './archive-inflate';
import type { ArchiveLimits, Unpacked } from './archive-limits';
import { ARCHIVE_ROOT, checkEntryName, decodeName, invalid, NameRegistry, showName, tooLarge, type ArchiveFailure } from './archive-names';

const BLOCK = 512;
/** Cap on one PAX or GNU extension header's data. */
const EXTENSION_CAP = 64 * 1024;
/** Room for tar headers and padding on top of the file bytes when capping the gunzip output. */
export const TAR_OVERHEAD_ALLOWANCE = 4 * 1024 * 1024;

const TEXT = new TextDecoder('latin1');

function isZero(bytes: Uint8Array, from = 0): boolean {
  return bytes.subarray(from).every((byte) => byte === 0);
}

/** A NUL-terminated field as raw bytes. */
function field(block: Uint8Array, start: number, length: number): Uint8Array {
  const bytes = block.subarray(start, start + length);
  const nul = bytes.indexOf(0);
  return nul < 0 ? bytes : bytes.subarray(0, nul);
}

/** An octal number field (spaces/NUL padded) or a GNU base-256 field; null when malformed. */
function numberField(block: Uint8Array, start: number, length: number): number | null {
  const bytes = block.subarray(start, start + length);
  const first = bytes[0] as number;
  if (first & 0x80) {
    if (first !== 0x80) return null; // negative or malformed base-256
    let value = 0;
    for (let i = 1; i < bytes.length; i++) {
      value = value * 256 + (bytes[i] as number);
      if (value > Number.MAX_SAFE_INTEGER) return Number.POSITIVE_INFINITY;
    }
    return value;
  }
  const text = TEXT.decode(bytes)
    .replace(/[\u0000 ]+$/, '')
    .replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) return null;
  return parseInt(text, 8);
}

function checksumMatches(block: Uint8Array): boolean {
  const stored = numberField(block, 148, 8);
  if (stored === null) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] as number);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

type Pax = Map<string, string>;

/** Parse PAX records (`<length> <key>=<value>\n`); null when malformed or a key repeats. */
function parsePax(data: Uint8Array): Pax | null {
  const records: Pax = new Map();
  let at = 0;
  while (at < data.length) {
    let space = at;
    while (space < data.length && data[space] !== 0x20) space++;
    const lengthText = TEXT.decode(data.subarray(at, space));
    if (!/^[1-9][0-9]*$/.test(lengthText)) return null;
    const length = parseInt(lengthText, 10);
    const end = at + length;
    if (end > data.length || end <= space + 1 || data[end - 1] !== 0x0a) return null;
    const record = decodeName(data.subarray(space + 1, end - 1));
    if (record === null) return null;
    const eq = record.indexOf('=');
    if (eq <= 0) return null;
    const key = record.slice(0, eq);
    if (records.has(key)) return null;
    records.set(key, record.slice(eq + 1));
    at = end;
  }
  return records;
}

/**
 * Check the name a tool that ignores PAX and GNU extensions would use. Only the traits that could
 * escape the skill directory are refused here: such tools see a truncated name, which may end in a
 * `/` or cut a segment short.
 */
function checkFallbackName(raw: string): ArchiveFailure | null {
  if (raw === '') return null;
  const checked = checkEntryName(raw, true, 'header name');
  if (checked.ok || checked.code === 'archive-path-segment' || checked.code === 'archive-path-empty') return null;
  return checked;
}

interface Pending {
  pax: Pax | null;
  longName: string | null;
  longLink: string | null;
}

function emptyPending(): Pending {
  return { pax: null, longName: null, longLink: null };
}

function truncated(detail: string): ArchiveFailure {
  return invalid('archive-truncated', `The tar archive is truncated: ${detail}.`);
}

/** The fields of one header block the walk needs. */
interface Header {
  /** Offset of the header block. */
  at: number;
  flag: string;
  nameBytes: Uint8Array;
  prefixBytes: Uint8Array;
  size: number;
  /** The header's link name (where a link entry points), for messages. */
  linkName: string;
}

/** Where the walk stands: what has been read so far and the extension headers not yet applied. */
interface Walk {
  tar: Uint8Array;
  limits: ArchiveLimits;
  entries: ArchiveEntry[];
  files: Map<string, Uint8Array>;
  names: NameRegistry;
  used: number;
  pending: Pending;
}

/** The end-of-archive marker: nothing may be left pending, and only zeros may follow. */
function endOfArchive(w: Walk, at: number): ArchiveFailure | null {
  if (w.pending.pax || w.pending.longName !== null || w.pending.longLink !== null) return truncated('an extended header is not followed by an entry');
  if (!isZero(w.tar, at + BLOCK)) return invalid('tar-trailing-data', 'Data follows the tar end-of-archive marker.');
  return null;
}

/** The header block at `at` (checksum and size checked). */
function readHeader(block: Uint8Array, at: number): Header | ArchiveFailure {
  if (!checksumMatches(block)) return invalid('tar-bad-checksum', `The tar header at offset ${at} has a wrong checksum.`);
  const flag = String.fromCharCode(block[156] as number);
  const magic = TEXT.decode(block.subarray(257, 265));
  const posix = magic.startsWith('ustar\u0000');
  const nameBytes = field(block, 0, 100);
  const prefixBytes = posix ? field(block, 345, 155) : new Uint8Array(0);
  const size = numberField(block, 124, 12);
  if (size === null) return invalid('tar-bad-header', `The tar header at offset ${at} has a malformed size.`);
  const linkName = decodeName(field(block, 157, 100)) ?? '';
  return { at, flag, nameBytes, prefixBytes, size, linkName };
}

function isFailure(value: object): value is ArchiveFailure {
  return 'ok' in value && value.ok === false;
}

function isExtension(flag: string): boolean {
  return flag === 'x' || flag === 'g' || flag === 'L' || flag === 'K';
}

/** A PAX header (`x` for the next entry, `g` global) kept for the entry it describes. */
function applyPax(pending: Pending, flag: string, data: Uint8Array, at: number): ArchiveFailure | null {
  const pax = parsePax(data);
  if (!pax) return invalid('tar-bad-pax', `The PAX header at offset ${at} is malformed.`);
  if (flag === 'g') {
    if (pax.has('path') || pax.has('linkpath') || pax.has('size')) return invalid('tar-bad-pax', 'A global PAX header sets a path or a size for every entry.');
    return null;
  }
  if (pending.pax) return invalid('tar-bad-pax', 'Two PAX headers precede the same entry.');
  pending.pax = pax;
  return null;
}

/** A GNU long name (`L`) or long link name (`K`) kept for the entry it describes. */
function applyGnuName(pending: Pending, flag: string, data: Uint8Array, at: number): ArchiveFailure | null {
  const text = decodeName(field(data, 0, data.length));
  if (text === null) return invalid('archive-name-encoding', `The GNU long name at offset ${at} is not valid UTF-8.`);
  if (flag === 'L') {
    if (pending.longName !== null) return invalid('tar-bad-header', 'Two GNU long names precede the same entry.');
    pending.longName = text;
  } else {
    if (pending.longLink !== null) return invalid('tar-bad-header', 'Two GNU long link names precede the same entry.');
    pending.longLink = text;
  }
  return null;
}

/** An extension header, which describes the entry that follows it; answers the next header's offset. */
function readExtension(w: Walk, h: Header): number | ArchiveFailure {
  if (h.size > EXTENSION_CAP) return tooLarge('archive-too-large', `An extension header of ${h.size} bytes is over the ${EXTENSION_CAP}-byte cap.`);
  const dataStart = h.at + BLOCK;
  const next = dataStart + Math.ceil(h.size / BLOCK) * BLOCK;
  if (next > w.tar.length) return truncated('an extension header is cut short');
  const data = w.tar.subarray(dataStart, dataStart + h.size);
  const failed = h.flag === 'x' || h.flag === 'g' ? applyPax(w.pending, h.flag, data, h.at) : applyGnuName(w.pending, h.flag, data, h.at);
  return failed ?? next;
}

interface EntryName {
  /** The name every reader agrees on. */
  name: string;
  /** The name in the header itself (prefix + name), which tools that ignore extensions use. */
  headerName: string;
  /** Which field `name` came from, for messages. */
  what: string;
}

/** The entry's name: PAX path, then GNU long name, then prefix + name; the first two must agree. */
function entryName(h: Header, pending: Pending): EntryName | ArchiveFailure {
  const headerNameBytes = h.prefixBytes.length > 0 ? new Uint8Array([...h.prefixBytes, 0x2f, ...h.nameBytes]) : h.nameBytes;
  const headerName = decodeName(headerNameBytes);
  if (headerName === null) return invalid('archive-name-encoding', `The tar entry name at offset ${h.at} is not valid UTF-8.`);
  const paxPath = pending.pax?.get('path') ?? null;
  const longName = pending.longName;
  if (paxPath !== null && longName !== null && paxPath !== longName) {
    return invalid('tar-conflicting-names', `The PAX path ${showName(paxPath)} and the GNU long name ${showName(longName)} disagree.`);
  }
  const name = paxPath ?? longName ?? headerName;
  const what = paxPath !== null ? 'PAX path' : longName !== null ? 'GNU long name' : 'name';
  return { name, headerName, what };
}

/** Only regular files and directories are unpacked: links, devices, FIFOs and sparse files are refused. */
function entryKind(flag: string, name: string, pending: Pending, linkName: string): 'file' | 'directory' | ArchiveFailure {
  if (flag === '1' || flag === '2') {
    const target = pending.pax?.get('linkpath') ?? pending.longLink ?? linkName;
    const to = target === '' ? '' : ` to ${showName(target)}`;
    return invalid('archive-link', `The entry ${showName(name)} is a ${flag === '1' ? 'hard' : 'symbolic'} link${to}.`);
  }
  const regular = flag === '0' || flag === '\u0000' || flag === '7';
  const directory = flag === '5';
  if (!regular && !directory) {
    const kind = flag === '3' ? 'a character device' : flag === '4' ? 'a block device' : flag === '6' ? 'a FIFO' : `of tar type ${JSON.stringify(flag)}`;
    return invalid('archive-special-entry', `The entry ${showName(name)} is ${kind}, not a regular file or a directory.`);
  }
  if (pending.pax) {
    for (const key of pending.pax.keys()) {
      if (key.startsWith('GNU.sparse.')) return invalid('archive-special-entry', `The entry ${showName(name)} is a sparse file.`);
    }
  }
  return directory ? 'directory' : 'file';
}

/** The entry's checked path: the header name a tool ignoring extensions would use, then the agreed name. */
function entryPath(n: EntryName, type: 'file' | 'directory'): string | ArchiveFailure {
  if (n.name !== n.headerName) {
    const fallback = checkFallbackName(n.headerName);
    if (fallback) return fallback;
  }
  const checked = checkEntryName(n.name, type === 'directory', n.what, true);
  return checked.ok ? checked.path : checked;
}

/** The entry's data size: the PAX `size` when there is one, within what is left of the byte cap. */
function entrySize(w: Walk, h: Header, name: string, type: 'file' | 'directory'): number | ArchiveFailure {
  let size = h.size;
  const paxSize = w.pending.pax?.get('size');
  if (paxSize !== undefined) {
    if (!/^[0-9]+$/.test(paxSize)) return invalid('tar-bad-pax', `The PAX size of ${showName(name)} is malformed.`);
    size = Number(paxSize);
  }
  if (type === 'directory' && size !== 0) return invalid('tar-directory-has-data', `The directory entry ${showName(name)} has contents.`);
  if (!Number.isSafeInteger(size) || size > w.limits.maxBytes - w.used) {
    return tooLarge('archive-too-large', `The archive unpacks to more than ${w.limits.maxBytes} bytes.`);
  }
  return size;
}

/** A regular file or directory entry, recorded with its data; answers the next header's offset. */
function readEntry(w: Walk, h: Header): number | ArchiveFailure {
  const n = entryName(h, w.pending);
  if (isFailure(n)) return n;
  const type = entryKind(h.flag, n.name, w.pending, h.linkName);
  if (typeof type !== 'string') return type;
  const path = entryPath(n, type);
  if (typeof path !== 'string') return path;
  if (path === ARCHIVE_ROOT) return skipRoot(w, h);
  const size = entrySize(w, h, n.name, type);
  if (typeof size !== 'number') return size;
  const refused = w.names.admit(path, type, w.limits);
  if (refused) return refused;

  const dataStart = h.at + BLOCK;
  const next = dataStart + Math.ceil(size / BLOCK) * BLOCK;
  if (next > w.tar.length) return truncated(`the data of ${showName(n.name)} is cut short`);
  w.used += size;
  w.entries.push({ path, size, type });
  if (type === 'file') w.files.set(path, w.tar.slice(dataStart, dataStart + size));
  w.pending = emptyPending();
  return next;
}

/** The archive's own root directory (`./`): nothing to unpack; it may hold no data. */
function skipRoot(w: Walk, h: Header): number | ArchiveFailure {
  if (h.size !== 0 || w.pending.pax?.get('size') !== undefined) return invalid('tar-directory-has-data', 'The root directory entry "./" has contents.');
  w.pending = emptyPending();
  return h.at + BLOCK;
}

/** Walk the tar stream; never throws for malformed input. */
export function readTar(tar: Uint8Array, limits: ArchiveLimits): Unpacked | ArchiveFailure {
  const w: Walk = { tar, limits, entries: [], files: new Map(), names: new NameRegistry(), used: 0, pending: emptyPending() };
  let at = 0;
  for (;;) {
    if (at === tar.length) return truncated('the end-of-archive marker is missing');
    if (at + BLOCK > tar.length) return truncated('a header block is cut short');
    const block = tar.subarray(at, at + BLOCK);
    if (isZero(block)) {
      const failed = endOfArchive(w, at);
      if (failed) return failed;
      break;
    }
    const h = readHeader(block, at);
    if (isFailure(h)) return h;
    const next = isExtension(h.flag) ? readExtension(w, h) : readEntry(w, h);
    if (typeof next !== 'number') return next;
    at = next;
  }
  return { ok: true, entries: w.entries, files: w.files };
}

/** The refusal for each way the gzip layer can fail other than going over the byte cap. */
const GZIP_FAILURES: Record<Exclude<Extract<GunzipOutcome, { ok: false }>['reason'], 'over-cap'>, (detail: string) => ArchiveFailure> = {
  'multiple-members': () => invalid('gzip-multiple-members', 'The gzip stream has more than one member.'),
  'trailing-data': () => invalid('gzip-trailing-data', 'Bytes follow the end of the gzip member.'),
  truncated: (detail) => invalid('archive-truncated', `The gzip stream is truncated (${detail}).`),
  'bad-header': (detail) => invalid('gzip-bad-header', `The gzip header is not acceptable: ${detail}.`),
  'trailer-mismatch': (detail) => invalid('gzip-trailer-mismatch', `The gzip stream does not check out: ${detail}.`),
  corrupt: (detail) => invalid('gzip-corrupt', `The gzip data is damaged (${detail}).`),
};

/** Gunzip (one member, capped) then read the tar inside. */
export function readTarGz(bytes: Uint8Array, limits: ArchiveLimits): Unpacked | ArchiveFailure {
  const out = gunzipSingleMember(bytes, limits.maxBytes + TAR_OVERHEAD_ALLOWANCE);
  if (!out.ok && out.reason === 'over-cap') return tooLarge('archive-too-large', `The archive unpacks to more than ${limits.maxBytes} bytes.`);
  if (!out.ok) return GZIP_FAILURES[out.reason](out.detail);
  return readTar(out.bytes, limits);
}
