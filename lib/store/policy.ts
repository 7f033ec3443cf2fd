// Policies an organisation sets for Skillpin (docs/policies.md). Chrome reads them from managed
// storage described by public/managed_schema.json; Firefox from the enterprise policy's
// "3rdparty" extension data. Both arrive as one plain object from storage.managed, which this
// module reads. Every field is optional. A field that is present but unusable is left out and
// reported in `invalid`; one bad entry in a list drops that entry only, so a locked deny list
// with a typo still denies everything else. Pure: the object is handed in by the platform.
import { DEFAULT_SETTINGS, type Settings } from '../types';
import { MAX_CHAT_SITES } from '../chat/sites';
import { isHttpOrigin, originOfEntry } from '../origin';
import { parseListEntry } from '../scheduler/should-probe';
import { encodeBase64 } from '../verify/base64';
import { parsePublicKey } from '../verify/ed25519';
import { fingerprint } from '../verify/fingerprint';
import { lazy, parseInput, z } from '../input';
import { isObject } from './validate';

/** A publisher key the administrator pinned for an origin: never replaced by trust on first use. */
export interface ManagedKey {
  origin: string;
  /** Base64 of the raw 32-byte key, as pins store it. */
  key: string;
  fingerprint: string;
}

export interface ManagedPolicy {
  /** The Settings fields the organisation sets: they win over the user's and are locked. */
  settings: Partial<Settings>;
  /** "Only verified-signed skills can be approved" (and handed on). */
  requireSigned: boolean;
  pinnedKeys: ManagedKey[];
  /** Policy fields, or entries of them, that were present but unusable (and are not applied). */
  invalid: string[];
}

/** The policy names an administrator writes (public/managed_schema.json). */
export const POLICY_FIELDS = ['probing', 'probeInPrivate', 'allowList', 'denyList', 'allowListOnly', 'chatSites', 'requireSignedSkills', 'pinnedKeys'] as const;

export function noPolicy(): ManagedPolicy {
  return { settings: {}, requireSigned: false, pinnedKeys: [], invalid: [] };
}

const MAX_LIST = 10_000;

const bool = lazy(() => z.boolean('not true or false'));

/** The value of policy `name` when `schema` takes it; one it refuses is reported with the schema's words. */
function read<T>(raw: Record<string, unknown>, name: string, schema: z.ZodMiniType<T>, invalid: string[]): T | undefined {
  if (raw[name] === undefined) return undefined;
  const parsed = parseInput(schema, raw[name]);
  if (parsed.ok) return parsed.value;
  for (const e of parsed.errors) invalid.push(`${name}: ${e.message}`);
  return undefined;
}

/** A list of strings, each checked by `ok`; bad entries are reported and dropped. */
function readList(raw: Record<string, unknown>, name: string, ok: (s: string) => string | null, max: number, invalid: string[]): string[] | undefined {
  const v = read(raw, name, z.array(z.unknown(), 'not a list'), invalid);
  if (v === undefined) return undefined;
  const out: string[] = [];
  v.forEach((entry, i) => {
    const value = typeof entry === 'string' ? ok(entry) : null;
    if (value === null) invalid.push(`${name}[${i}]: ${JSON.stringify(entry)?.slice(0, 200) ?? 'undefined'} is not usable`);
    else if (!out.includes(value)) out.push(value);
  });
  if (out.length > max) {
    invalid.push(`${name}: more than ${max} entries; only the first ${max} apply`);
    out.length = max;
  }
  return out;
}

/** An allow/deny entry as the options page stores it (any form should-probe.ts understands). */
function siteEntry(s: string): string | null {
  const v = s.trim();
  return v !== '' && parseListEntry(v) ? v : null;
}

/** `https://host[:port]`, a trailing slash allowed; no path, query, fragment or credentials. */
function exactOrigin(s: string): string | null {
  const origin = originOfEntry(s, { bare: true });
  return origin !== null && isHttpOrigin(origin) ? origin : null;
}

function readKeys(raw: Record<string, unknown>, invalid: string[]): ManagedKey[] {
  const v = read(raw, 'pinnedKeys', z.custom<Record<string, unknown>>(isObject, 'not an object of origin → base64 key'), invalid);
  const out: ManagedKey[] = [];
  for (const [name, text] of Object.entries(v ?? {})) {
    const origin = exactOrigin(name);
    if (origin === null) {
      invalid.push(`pinnedKeys: ${JSON.stringify(name.slice(0, 200))} is not an http(s) origin`);
      continue;
    }
    if (typeof text !== 'string') {
      invalid.push(`pinnedKeys[${origin}]: the key is not a string`);
      continue;
    }
    const parsed = parsePublicKey(text.trim());
    if (!parsed.ok) {
      invalid.push(`pinnedKeys[${origin}]: ${parsed.message}`);
      continue;
    }
    if (out.some((k) => k.origin === origin)) {
      invalid.push(`pinnedKeys[${origin}]: named twice; the first key applies`);
      continue;
    }
    out.push({ origin, key: encodeBase64(parsed.key), fingerprint: fingerprint(parsed.key) });
  }
  return out;
}

/** The policy an object from storage.managed describes; anything that is not an object is no policy. */
export function parseManaged(raw: unknown): ManagedPolicy {
  const policy = noPolicy();
  if (raw === undefined || raw === null) return policy;
  if (!isObject(raw)) {
    policy.invalid.push('policy: not an object');
    return policy;
  }
  const { invalid, settings } = policy;
  const probing = read(raw, 'probing', bool(), invalid);
  if (probing !== undefined) settings.paused = !probing;
  const probeInPrivate = read(raw, 'probeInPrivate', bool(), invalid);
  if (probeInPrivate !== undefined) settings.probeInPrivate = probeInPrivate;
  const allowListOnly = read(raw, 'allowListOnly', bool(), invalid);
  if (allowListOnly !== undefined) settings.allowListOnly = allowListOnly;
  const allowList = readList(raw, 'allowList', siteEntry, MAX_LIST, invalid);
  if (allowList) settings.allowList = allowList;
  const denyList = readList(raw, 'denyList', siteEntry, MAX_LIST, invalid);
  if (denyList) settings.denyList = denyList;
  const chatSites = readList(raw, 'chatSites', exactOrigin, MAX_CHAT_SITES, invalid);
  if (chatSites) settings.chatSites = chatSites;
  policy.requireSigned = read(raw, 'requireSignedSkills', bool(), invalid) ?? false;
  policy.pinnedKeys = readKeys(raw, invalid);
  for (const name of Object.keys(raw)) {
    if (!(POLICY_FIELDS as readonly string[]).includes(name)) invalid.push(`${name}: not a Skillpin policy (ignored)`);
  }
  return policy;
}

/** The Settings fields the policy locks, in Settings order. */
export function managedFields(policy: ManagedPolicy): (keyof Settings)[] {
  return (Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]).filter((f) => policy.settings[f] !== undefined);
}

/** What everything that reads settings uses: the user's settings overlaid by the managed ones. */
export function effectiveSettings(user: Settings, policy: ManagedPolicy): Settings {
  return { ...structuredClone(user), ...structuredClone(policy.settings) };
}

/**
 * The managed fields `changes` would change: a field the policy sets, sent with another value
 * than the policy's. Sending the managed value itself changes nothing and is not a conflict.
 */
export function managedConflicts(changes: Partial<Settings>, policy: ManagedPolicy): (keyof Settings)[] {
  return managedFields(policy).filter((f) => changes[f] !== undefined && JSON.stringify(changes[f]) !== JSON.stringify(policy.settings[f]));
}

/** `changes` without the fields the policy manages (those keep the user's stored value). */
export function withoutManaged(changes: Partial<Settings>, policy: ManagedPolicy): Partial<Settings> {
  const out: Partial<Settings> = { ...changes };
  for (const f of managedFields(policy)) delete out[f];
  return out;
}

/** The administrator's key for `origin`, if the policy pins one. */
export function managedKeyFor(policy: Pick<ManagedPolicy, 'pinnedKeys'>, origin: string): ManagedKey | null {
  return policy.pinnedKeys.find((k) => k.origin === origin) ?? null;
}
