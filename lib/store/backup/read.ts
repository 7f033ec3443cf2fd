// Reading a trust backup: the whole file is parsed and every field checked; one wrong field makes
// the file unusable (with every error listed), so nothing of a malformed file is ever imported.
import { isApprovable } from '../../types';
import type { Approval, Pin, Settings, SkillStatus } from '../../types';
import { isHttpOrigin, isHttpUrl, urlOf } from '../../origin';
import { FINGERPRINT, HEX64, lazy, parseInput, z } from '../../input';
import { decodeBase64Strict } from '../../verify/base64';
import { fileSetDigest } from '../../verify/file-set';
import { fingerprint } from '../../verify/fingerprint';
import { readSettings } from '../settings';
import { isObject, isSkillStatus, toArchiveBinding } from '../validate';
import { BACKUP_FORMAT, READABLE_VERSIONS } from './format';

const ED25519_KEY_BYTES = 32;

function isPlainHttpUrl(v: unknown): v is string {
  const u = typeof v === 'string' ? urlOf(v) : null;
  return u !== null && isHttpUrl(u) && u.href === v && u.hash === '';
}

/** A relative `/`-separated path without empty, `.` or `..` segments, backslashes or control characters (FORMATS.md §6.4). */
function isRelativePath(p: string): boolean {
  if (p === '' || p.startsWith('/') || /[\\\u0000-\u001f]/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** A revoked key as the export carries it. */
export interface Revocation {
  origin: string;
  fingerprint: string;
  revokedAt: number;
}

/** Why `key` is not a raw ed25519 key in strict base64, or null when it is one. */
function keyProblem(key: string): string | null {
  if (key.trim() !== key) return 'not a base64 string';
  const bytes = decodeBase64Strict(key);
  if (!bytes) return 'not strict base64';
  return bytes.length === ED25519_KEY_BYTES ? null : `${bytes.length} bytes, an ed25519 key has ${ED25519_KEY_BYTES}`;
}

/** What is read of a file once its format and version are known; what `settings` sets is read by readSettings. */
const FILE = lazy(() => {
  /** A string `re` matches, with one message for anything else. */
  const matching = (re: RegExp, message: string) => z.string(message).check(z.regex(re, message));
  const time = z.number('not a time').check(z.nonnegative('not a time'));
  const origin = z.custom<string>(isHttpOrigin, 'not an http(s) origin');
  const keyFingerprint = matching(FINGERPRINT, 'not a SHA256: fingerprint');
  const digest = matching(HEX64, 'not 64 lowercase hex digits');

  const PIN = z
    .object(
      {
        origin,
        key: z.string('not a base64 string').check((ctx) => {
          const problem = keyProblem(ctx.value);
          if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
        }),
        fingerprint: keyFingerprint,
        firstSeen: time,
        lastSeen: time,
      },
      'not an object',
    )
    .check((ctx) => {
      const pin = ctx.value;
      const key = keyProblem(pin.key) === null ? decodeBase64Strict(pin.key) : null;
      if (key && FINGERPRINT.test(pin.fingerprint) && fingerprint(key) !== pin.fingerprint) ctx.issues.push({ code: 'custom', message: 'does not match the key', path: ['fingerprint'], input: pin });
      if (pin.lastSeen < pin.firstSeen) ctx.issues.push({ code: 'custom', message: 'lastSeen is before firstSeen', input: pin });
    });

  /** The files an archive approval binds: digests in lowercase hex, relative paths, each once, the set's digest matching them. */
  const ARCHIVE_FIELDS = z.looseObject({ filesDigest: digest, sha256: digest, files: z.array(z.unknown(), 'not a list') }, 'not { filesDigest, sha256, files }');
  const ARCHIVE = z.pipe(
    ARCHIVE_FIELDS,
    z.transform((v: z.output<typeof ARCHIVE_FIELDS>, ctx) => {
      const binding = toArchiveBinding(v);
      const bad = v.files.findIndex((f) => !isObject(f) || typeof f.path !== 'string' || !isRelativePath(f.path) || typeof f.sha256 !== 'string' || !HEX64.test(f.sha256));
      if (binding && bad < 0 && fileSetDigest(binding.files) === binding.filesDigest) return binding;
      const files = !binding || bad >= 0;
      ctx.issues.push({
        code: 'custom',
        input: v,
        path: files ? (bad >= 0 ? ['files', bad] : ['files']) : ['filesDigest'],
        message: files ? 'not a list of distinct { path, size, sha256 } with relative paths' : 'does not match its files',
      });
      return z.NEVER;
    }),
  );

  const APPROVAL = z.object(
    {
      origin,
      url: z.custom<string>(isPlainHttpUrl, 'not an absolute http(s) URL without fragment'),
      digestLf: digest,
      digestRaw: digest,
      keyFingerprint: z.nullable(matching(FINGERPRINT, 'neither null nor a SHA256: fingerprint')),
      statusAtApproval: z.custom<SkillStatus>((s) => isSkillStatus(s) && isApprovable(s), 'not an approvable status'),
      name: z.string('not a string'),
      approvedAt: time,
      archive: z.optional(ARCHIVE),
    },
    'not an object',
  );

  const REVOCATION = z.object({ origin, fingerprint: keyFingerprint, revokedAt: time }, 'not an object');

  return z.object({
    exportedAt: z.number('not a time'),
    pins: z.array(PIN, 'not a list'),
    approvals: z.array(APPROVAL, 'not a list'),
    revocations: z.optional(z.array(REVOCATION, 'not a list')),
    settings: z.optional(z.custom<Record<string, unknown>>(isObject, 'not an object')),
  });
});

/** The settings fields a file sets (fields it leaves out keep their current value). */
function settingsOf(v: Record<string, unknown>, errors: string[]): Partial<Settings> | null {
  const { settings, invalid } = readSettings(v);
  if (invalid.length > 0) {
    errors.push(`settings: unusable ${invalid.join(', ')}`);
    return null;
  }
  return Object.fromEntries(Object.entries(settings).filter(([field]) => v[field] !== undefined));
}

/** An error for each entry of the list `name` whose id an earlier entry has (`problem`: what that entry is). */
function repeated<T>(errors: string[], name: string, list: readonly T[], describe: (v: T) => { id: string; problem: string }): void {
  const seen = new Set<string>();
  list.forEach((v, i) => {
    const { id, problem } = describe(v);
    if (seen.has(id)) errors.push(`${name}[${i}]: ${problem}`);
    seen.add(id);
  });
}

/** A valid import file. */
export interface ParsedBackup {
  pins: Pin[];
  approvals: Approval[];
  revocations: Revocation[];
  /** null when the file carries no settings. */
  settings: Partial<Settings> | null;
}

/** Parses and checks a whole file; null (with `errors`) when anything in it is wrong. */
export function readBackup(json: string, errors: string[]): ParsedBackup | null {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    errors.push(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
  if (!isObject(doc)) {
    errors.push('not a Skillpin trust export (expected an object)');
    return null;
  }
  if (doc.format !== BACKUP_FORMAT) {
    errors.push(`not a Skillpin trust export (format is not "${BACKUP_FORMAT}")`);
    return null;
  }
  if (typeof doc.version !== 'number' || !READABLE_VERSIONS.includes(doc.version)) {
    errors.push(`unsupported export version ${JSON.stringify(doc.version)} (this Skillpin reads versions ${READABLE_VERSIONS.join(' and ')})`);
    return null;
  }
  const parsed = parseInput(FILE(), doc);
  if (!parsed.ok) {
    for (const e of parsed.errors) errors.push(`${e.path}: ${e.message}`);
    return null;
  }
  const file = parsed.value;
  const revocations = file.revocations ?? [];
  repeated(errors, 'pins', file.pins, (p) => ({ id: p.origin, problem: `a second pin for ${p.origin}` }));
  repeated(errors, 'approvals', file.approvals, (a) => ({ id: `${a.origin} ${a.url}`, problem: `a second approval for ${a.url} on ${a.origin}` }));
  repeated(errors, 'revocations', revocations, (r) => ({ id: `${r.origin} ${r.fingerprint}`, problem: `${r.fingerprint} is revoked twice for ${r.origin}` }));
  const settings = file.settings === undefined ? null : settingsOf(file.settings, errors);
  return errors.length > 0 ? null : { pins: file.pins, approvals: file.approvals, revocations, settings };
}
