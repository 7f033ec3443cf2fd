// Validation: every message is untrusted until it passes here. messageTable() holds one row per request
// type (who may send it, what it changes, where its content goes, a schema per field).
import { PINS_FILTER_MAX, PINS_PAGE_MAX } from '../types/pins-page';
import { settingsChanges, settingsMessage } from '../store/settings';
import { isHttpOrigin } from '../origin';
import { FINGERPRINT, HEX64, lazy, parseInput, text, z } from '../input';
import { APPROVED_PAGE_MAX, type PublicRequests, type Request, type RequestMap, type RequestType } from './requests';
import type { StateChangeKind } from './state-change';

type Schema = z.ZodMiniType;
/**
 * Where a path hands a skill's content out of the extension (lib/background/hand-off-gate.ts):
 * the clipboard (the popup's Copy), a chat frame (Insert), a downloaded file (Export for upload),
 * the desktop program (the background's mirror, lib/background/desktop-mirror.ts DESKTOP_HAND_OFFS).
 */
export type HandOffKind = 'clipboard' | 'chat' | 'download' | 'desktop';

/** The background's slices of handlers (lib/background/handlers/): each request type belongs to exactly one. */
export type Concern = 'reports' | 'approvals' | 'keys' | 'settings' | 'transfer' | 'desktop';

/** Everything the background knows about one request type, in one place. */
export interface MessageDefinition<T extends RequestType = RequestType> {
  /** Who may send it: anyone inside the extension, or only the extension's own pages (PRODUCT.md §6). */
  access: T extends keyof PublicRequests ? 'public' : 'privileged';
  /**
   * What it may change (null: nothing). After such a request, whether it succeeded or not, open pages are told
   * (STATE_CHANGE_KEY) and reports made before it are no longer taken as current.
   */
  changes: StateChangeKind | null;
  /** The slice of handlers that answers it. */
  concern: Concern;
  /**
   * Where its answer hands a skill's content (null: nowhere, it stays inside Skillpin's pages). A
   * request that hands content on takes its bytes only from the hand-off gate, under every rule.
   */
  handsOff: HandOffKind | null;
  /**
   * One schema per field of the request, optional ones included, keyed by the request's own fields:
   * a field with no schema, or a schema of no field, does not compile.
   */
  fields: FieldChecks<RequestMap[T]['request']>;
}

/** A schema for every key of a request (`-?`: an optional field is checked too, for its absence or its value). */
export type FieldChecks<R> = { readonly [K in keyof R]-?: Schema };

/**
 * The table, built the first time it is read: its schemas serve messages, and a worker woken by a
 * navigation may see none (each schema built holds heap as long as the worker lives).
 */
export const messageTable = lazy(() => {
  const str = text(8192);
  const bool = z.boolean();
  const strOrNull = z.nullable(str);
  /** A whole number, 0 or more (any size a number holds exactly or not: `Number.isInteger`). */
  const count = z.number().check(z.refine(Number.isInteger), z.nonnegative());
  const optionalInt = z.optional(count);
  const hex64 = z.string().check(z.regex(HEX64));
  const origin = z.custom<string>(isHttpOrigin);
  const restore = z.object({ keyFingerprint: strOrNull, approvedAt: z.number().check(z.nonnegative()) });
  /** Finding keys (findingKey in lib/review/): kind, file and matched text. */
  const findingKeys = z.array(text(4096)).check(z.maxLength(1000));
  const importJson = text(16 * 1024 * 1024);
  /** Absent (a sender that predates confirmations: nothing needing one is imported) or a list of ids. */
  const optionalIds = z.optional(z.array(str).check(z.maxLength(100_000)));
  const none = {} as const;

  return {
    'skillpin:ready': { access: 'public', changes: null, concern: 'reports', handsOff: null, fields: none },
    'skillpin:report': { access: 'public', changes: null, concern: 'reports', handsOff: null, fields: { origin, clickedTab: optionalInt } },
    'skillpin:probe': { access: 'public', changes: null, concern: 'reports', handsOff: null, fields: { origin, tabId: optionalInt } },
    'skillpin:reports-list': { access: 'privileged', changes: null, concern: 'reports', handsOff: null, fields: none },
    'skillpin:approve': {
      access: 'privileged',
      changes: 'trust',
      concern: 'approvals',
      handsOff: null,
      fields: {
        origin,
        url: str,
        digestLf: hex64,
        filesDigest: z.optional(hex64),
        confirmUnverified: bool,
        confirmCrossOrigin: bool,
        restore: z.optional(restore),
        confirmFindings: z.optional(findingKeys),
      },
    },
    'skillpin:confirm-findings': { access: 'privileged', changes: 'trust', concern: 'approvals', handsOff: null, fields: { origin, url: str, digestLf: hex64, confirmFindings: findingKeys } },
    'skillpin:revoke': { access: 'privileged', changes: 'trust', concern: 'approvals', handsOff: null, fields: { origin, url: str } },
    'skillpin:skill-text': { access: 'privileged', changes: null, concern: 'approvals', handsOff: null, fields: { origin, url: str } },
    'skillpin:skill-context': { access: 'privileged', changes: null, concern: 'approvals', handsOff: 'clipboard', fields: { origin, url: str } },
    'skillpin:approved-list': {
      access: 'privileged',
      changes: null,
      concern: 'approvals',
      handsOff: null,
      fields: { offset: optionalInt, limit: z.optional(count.check(z.gte(1), z.lte(APPROVED_PAGE_MAX))) },
    },
    'skillpin:approvals-list': { access: 'privileged', changes: null, concern: 'approvals', handsOff: null, fields: none },
    'skillpin:insert': { access: 'privileged', changes: null, concern: 'approvals', handsOff: 'chat', fields: { tabId: count, chatOrigin: origin, origin, url: str } },
    'skillpin:trust-key': { access: 'privileged', changes: 'trust', concern: 'keys', handsOff: null, fields: { origin, expectedFingerprint: strOrNull, newFingerprint: str } },
    'skillpin:pins-list': { access: 'privileged', changes: null, concern: 'keys', handsOff: null, fields: none },
    'skillpin:pins-page': {
      access: 'privileged',
      changes: null,
      concern: 'keys',
      handsOff: null,
      fields: {
        offset: z.int().check(z.nonnegative()),
        limit: z.int().check(z.gte(1), z.lte(PINS_PAGE_MAX)),
        filter: text(PINS_FILTER_MAX),
      },
    },
    'skillpin:pin-forget': { access: 'privileged', changes: 'trust', concern: 'keys', handsOff: null, fields: { origin } },
    'skillpin:key-history': { access: 'privileged', changes: null, concern: 'keys', handsOff: null, fields: none },
    'skillpin:key-revoke': { access: 'privileged', changes: 'trust', concern: 'keys', handsOff: null, fields: { origin, fingerprint: z.string().check(z.regex(FINGERPRINT)) } },
    'skillpin:settings-get': { access: 'privileged', changes: null, concern: 'settings', handsOff: null, fields: none },
    // The shape of Settings is lib/store/settings.ts's, the same schemas the store's reads use.
    'skillpin:settings-set': { access: 'privileged', changes: 'settings', concern: 'settings', handsOff: null, fields: { settings: settingsMessage() } },
    'skillpin:settings-update': { access: 'privileged', changes: 'settings', concern: 'settings', handsOff: null, fields: { changes: settingsChanges() } },
    'skillpin:policy-get': { access: 'privileged', changes: null, concern: 'settings', handsOff: null, fields: none },
    'skillpin:site-access': { access: 'privileged', changes: null, concern: 'settings', handsOff: null, fields: { origin: z.optional(origin) } },
    'skillpin:backup': { access: 'privileged', changes: null, concern: 'transfer', handsOff: null, fields: none },
    'skillpin:import-preview': { access: 'privileged', changes: null, concern: 'transfer', handsOff: null, fields: { json: importJson } },
    'skillpin:import': { access: 'privileged', changes: 'trust', concern: 'transfer', handsOff: null, fields: { json: importJson, confirmUnverified: optionalIds, confirmCrossOrigin: optionalIds } },
    'skillpin:skill-export': { access: 'privileged', changes: null, concern: 'transfer', handsOff: 'download', fields: { origin, url: str } },
    'skillpin:exports-list': { access: 'privileged', changes: null, concern: 'transfer', handsOff: null, fields: none },
    // Names, revisions and states only: the skills' content goes to the program from the background's mirror path.
    'skillpin:desktop-status': { access: 'privileged', changes: null, concern: 'desktop', handsOff: null, fields: none },
    'skillpin:desktop-check': { access: 'privileged', changes: null, concern: 'desktop', handsOff: null, fields: none },
  } as const satisfies { [T in RequestType]: MessageDefinition<T> };
});

/** The request types one slice of handlers answers. */
export type TypesOf<C extends Concern> = { [T in RequestType]: ReturnType<typeof messageTable>[T]['concern'] extends C ? T : never }[RequestType];

/** Every request type, in the table's order. */
export function requestTypes(): RequestType[] {
  return Object.keys(messageTable()) as RequestType[];
}

/** One schema per request type, its `type` and its fields (any other key is left out), built the first time such a request comes. */
const REQUESTS = new Map<RequestType, Schema>();

function requestSchema(type: RequestType): Schema {
  let schema = REQUESTS.get(type);
  if (!schema) {
    schema = z.object({ ...(messageTable()[type].fields as Record<string, Schema>), type: z.literal(type) });
    REQUESTS.set(type, schema);
  }
  return schema;
}

/** Returns the typed request, or null when the message is not a well-formed Skillpin request. */
export function parseRequest(message: unknown): Request | null {
  const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(messageTable(), type)) return null;
  const parsed = parseInput(requestSchema(type as RequestType), message);
  return parsed.ok ? (parsed.value as Request) : null;
}

export function isPrivileged(type: RequestType): boolean {
  return messageTable()[type].access === 'privileged';
}

/** What a request of this type may change, or null (see MessageDefinition.changes). */
export function changesOf(type: RequestType): StateChangeKind | null {
  return messageTable()[type].changes;
}
