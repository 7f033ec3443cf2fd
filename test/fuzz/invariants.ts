// Invariants shared by the targets: every code an outcome carries is one docs/report.md
// documents, every level and status is one of the known few, a resolved URL keeps the artifact
// URL rules (FORMATS.md §9.3), and an unpacked path stays inside the skill root (FORMATS.md §6.4).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../../lib/types';
import type { SkillCandidate } from '../../lib/parse/candidate';
import { check } from './types';

function findRoot(): string {
  let dir = process.cwd();
  for (;;) {
    if (existsSync(join(dir, 'docs/report.md')) && existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('docs/report.md not found above the working directory');
    dir = up;
  }
}

let documented: Set<string> | null = null;

/** Every `code` docs/report.md names (a backticked kebab-case word). */
export function documentedCodes(): Set<string> {
  if (documented === null) {
    const text = readFileSync(resolve(findRoot(), 'docs/report.md'), 'utf8');
    documented = new Set([...text.matchAll(/`([a-z0-9]+(?:-[a-z0-9]+)+)`/g)].map((m) => m[1] as string));
  }
  return documented;
}

export function checkCode(code: unknown, where: string): void {
  check(typeof code === 'string' && documentedCodes().has(code), () => `${where}: the code ${JSON.stringify(code)} is not documented in docs/report.md`);
}

const LEVELS = new Set(['info', 'warning', 'error']);

export function checkDiagnostics(list: unknown, where: string, lineCount?: number): void {
  check(Array.isArray(list), `${where}: diagnostics is not an array`);
  for (const d of list as Diagnostic[]) {
    checkCode(d.code, where);
    check(LEVELS.has(d.level), () => `${where}: unknown level ${JSON.stringify(d.level)} on ${d.code}`);
    check(typeof d.message === 'string' && d.message.length > 0, `${where}: ${d.code} has no message`);
    if (d.line !== undefined && lineCount !== undefined) {
      check(Number.isInteger(d.line) && d.line >= 1 && d.line <= lineCount, () => `${where}: ${d.code} names line ${d.line} of ${lineCount}`);
    }
  }
}

// ---------------------------------------------------------------------------
// URLs
// ---------------------------------------------------------------------------

function v4(host: string): number[] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  return m ? m.slice(1).map(Number) : null;
}

/**
 * Hosts that are obviously not public, decided on the serialized host name (the URL parser has
 * already turned `0x7f.1` into `127.0.0.1`). Deliberately written apart from lib/net/url-safety.ts.
 */
export function obviouslyNotPublic(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  const q = v4(h);
  if (q) {
    const [a, b] = q as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 100 && b >= 64 && b <= 127);
  }
  if (h.startsWith('[')) {
    return h === '[::1]' || h === '[::]' || /^\[f[cd]/.test(h) || /^\[fe[89ab]/.test(h) || h.startsWith('[::ffff:');
  }
  return false;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** A URL a parser resolved for fetching keeps the artifact URL rules for `origin`. */
export function checkResolvedUrl(url: string, origin: string, where: string): void {
  const u = parseUrl(url);
  check(u !== null, () => `${where}: the resolved URL ${JSON.stringify(url)} does not parse`);
  const parsed = u as URL;
  check(parsed.href === url, () => `${where}: the resolved URL ${JSON.stringify(url)} is not serialized`);
  check(!url.includes('#'), () => `${where}: the resolved URL ${JSON.stringify(url)} keeps a fragment`);
  check(parsed.username === '' && parsed.password === '', () => `${where}: the resolved URL ${JSON.stringify(url)} carries credentials`);
  const from = parseUrl(origin);
  check(from !== null && (from.protocol === 'https:' || from.protocol === 'http:'), () => `${where}: a URL was resolved for the origin ${JSON.stringify(origin)}, which is not http(s)`);
  const o = from as URL;
  check(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && o.protocol === 'http:'), () => `${where}: the scheme of ${JSON.stringify(url)} is not allowed for ${origin}`);
  if (!obviouslyNotPublic(o.hostname)) {
    check(!obviouslyNotPublic(parsed.hostname), () => `${where}: the public origin ${origin} resolved ${JSON.stringify(url)}, a private or loopback host`);
  }
}

// ---------------------------------------------------------------------------
// Candidates
// ---------------------------------------------------------------------------

const HEX64 = /^[0-9a-f]{64}$/;

/** One candidate of llms.txt or an index, as the engine will read it. */
export function checkCandidate(c: SkillCandidate, origin: string, where: string, lineCount?: number): void {
  check(c.type === 'skill-md' || c.type === 'archive', () => `${where}: type ${JSON.stringify(c.type)}`);
  check(typeof c.rawUrl === 'string', `${where}: rawUrl is not a string`);
  if (c.url !== null) checkResolvedUrl(c.url, origin, where);
  if (c.refusal !== null) {
    check(c.refusal.status === 'invalid' || c.refusal.status === 'unsupported', () => `${where}: refusal status ${JSON.stringify(c.refusal?.status)}`);
    checkCode(c.refusal.code, `${where} (refusal)`);
    check(typeof c.refusal.message === 'string' && c.refusal.message.length > 0, `${where}: refusal without a message`);
  } else {
    check(c.url !== null, `${where}: a candidate without a usable URL is not refused`);
  }
  for (const d of c.declared) check(HEX64.test(d.hex), () => `${where}: declared digest ${JSON.stringify(d.hex)} is not 64 lower-case hex`);
  check(c.toolSha256 === null || HEX64.test(c.toolSha256), `${where}: tool_sha256 kept but not 64 lower-case hex`);
  for (const key of ['name', 'description', 'version', 'license', 'homepage', 'scope', 'tool', 'signature'] as const) {
    const v = c[key];
    check(v === null || typeof v === 'string', () => `${where}: ${key} is ${typeof v}`);
  }
  checkDiagnostics(c.diagnostics, where, lineCount);
}

// ---------------------------------------------------------------------------
// Archive paths
// ---------------------------------------------------------------------------

/**
 * A path an unpack returned stays inside the skill root: relative, `/`-separated, no empty,
 * `.` or `..` segment, no backslash, drive letter or control character. Written apart from
 * lib/verify/archive-names.ts on purpose.
 */
export function insideRoot(path: string): boolean {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path)) return false;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}
