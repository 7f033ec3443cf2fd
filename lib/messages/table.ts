// Validation: every message is untrusted until it passes here. MESSAGES holds one row per request
// type (who may send it, what it changes, where its content goes, a check per field).
import { PINS_FILTER_MAX, PINS_PAGE_MAX } from '../lists/pins-page';
import { isSettingsChanges, isSettingsMessage } from '../trust/settings';
import { isHttpOrigin } from '../origin';
import type { PublicRequests, Request, RequestMap, RequestType } from './requests';
import { APPROVED_PAGE_MAX } from './answers';
import type { StateChangeKind } from './state-change';

// ---------------------------------------------------------------------------
// Validation: every message is untrusted until it passes here.
// ---------------------------------------------------------------------------

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string' && v.length <= 8192;
const bool: Check = (v) => typeof v === 'boolean';
const int: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const strOrNull: Check = (v) => v === null || str(v);
const optionalInt: Check = (v) => v === undefined || int(v);
const hex64: Check = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const origin: Check = isHttpOrigin;
const optionalOrigin: Check = (v) => v === undefined || origin(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalRestore: Check = (v) => v === undefined || (isRecord(v) && strOrNull(v.keyFingerprint) && typeof v.approvedAt === 'number' && Number.isFinite(v.approvedAt) && v.approvedAt >= 0);
/** Finding keys (findingKey in lib/review/): kind, file and matched text. */
const findingKeys: Check = (v) => Array.isArray(v) && v.length <= 1000 && v.every((k) => typeof k === 'string' && k.length <= 4096);
const importJson: Check = (v) => typeof v === 'string' && v.length <= 16 * 1024 * 1024;
/** Absent (a sender that predates confirmations: nothing needing one is imported) or a list of ids. */
const optionalIds: Check = (v) => v === undefined || (Array.isArray(v) && v.length <= 100_000 && v.every(str));

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
   * One check per field of the request, optional ones included, keyed by the request's own fields:
   * a field with no check, or a check of no field, does not compile.
   */
  fields: FieldChecks<RequestMap[T]['request']>;
}

/** A check for every key of a request (`-?`: an optional field is checked too, for its absence or its value). */
export type FieldChecks<R> = { readonly [K in keyof R]-?: Check };

const none = {} as const;

export const MESSAGES = {
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
      filesDigest: (v) => v === undefined || hex64(v),
      confirmUnverified: bool,
      confirmCrossOrigin: bool,
      restore: optionalRestore,
      confirmFindings: (v) => v === undefined || findingKeys(v),
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
    fields: { offset: optionalInt, limit: (v) => v === undefined || (int(v) && (v as number) >= 1 && (v as number) <= APPROVED_PAGE_MAX) },
  },
  'skillpin:approvals-list': { access: 'privileged', changes: null, concern: 'approvals', handsOff: null, fields: none },
  'skillpin:insert': { access: 'privileged', changes: null, concern: 'approvals', handsOff: 'chat', fields: { tabId: int, chatOrigin: origin, origin, url: str } },
  'skillpin:trust-key': {
    access: 'privileged',
    changes: 'trust',
    concern: 'keys',
    handsOff: null,
    fields: { origin, expectedFingerprint: strOrNull, newFingerprint: str },
  },
  'skillpin:pins-list': { access: 'privileged', changes: null, concern: 'keys', handsOff: null, fields: none },
  'skillpin:pins-page': {
    access: 'privileged',
    changes: null,
    concern: 'keys',
    handsOff: null,
    fields: {
      offset: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
      limit: (v) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= PINS_PAGE_MAX,
      filter: (v) => typeof v === 'string' && v.length <= PINS_FILTER_MAX,
    },
  },
  'skillpin:pin-forget': { access: 'privileged', changes: 'trust', concern: 'keys', handsOff: null, fields: { origin } },
  'skillpin:key-history': { access: 'privileged', changes: null, concern: 'keys', handsOff: null, fields: none },
  'skillpin:key-revoke': {
    access: 'privileged',
    changes: 'trust',
    concern: 'keys',
    handsOff: null,
    fields: { origin, fingerprint: (v) => typeof v === 'string' && /^SHA256:[A-Za-z0-9+/]{43}$/.test(v) },
  },
  'skillpin:settings-get': { access: 'privileged', changes: null, concern: 'settings', handsOff: null, fields: none },
  // The shape of Settings is checked by lib/trust/settings.ts, the same check the store's reads use.
  'skillpin:settings-set': { access: 'privileged', changes: 'settings', concern: 'settings', handsOff: null, fields: { settings: isSettingsMessage } },
  'skillpin:settings-update': { access: 'privileged', changes: 'settings', concern: 'settings', handsOff: null, fields: { changes: isSettingsChanges } },
  'skillpin:policy-get': { access: 'privileged', changes: null, concern: 'settings', handsOff: null, fields: none },
  'skillpin:site-access': { access: 'privileged', changes: null, concern: 'settings', handsOff: null, fields: { origin: optionalOrigin } },
  'skillpin:backup': { access: 'privileged', changes: null, concern: 'transfer', handsOff: null, fields: none },
  'skillpin:import-preview': { access: 'privileged', changes: null, concern: 'transfer', handsOff: null, fields: { json: importJson } },
  'skillpin:import': {
    access: 'privileged',
    changes: 'trust',
    concern: 'transfer',
    handsOff: null,
    fields: { json: importJson, confirmUnverified: optionalIds, confirmCrossOrigin: optionalIds },
  },
  'skillpin:skill-export': { access: 'privileged', changes: null, concern: 'transfer', handsOff: 'download', fields: { origin, url: str } },
  'skillpin:exports-list': { access: 'privileged', changes: null, concern: 'transfer', handsOff: null, fields: none },
  // Names, revisions and states only: the skills' content goes to the program from the background's mirror path.
  'skillpin:desktop-status': { access: 'privileged', changes: null, concern: 'desktop', handsOff: null, fields: none },
  'skillpin:desktop-check': { access: 'privileged', changes: null, concern: 'desktop', handsOff: null, fields: none },
} as const satisfies { [T in RequestType]: MessageDefinition<T> };

/** The request types one slice of handlers answers. */
export type TypesOf<C extends Concern> = { [T in RequestType]: (typeof MESSAGES)[T]['concern'] extends C ? T : never }[RequestType];

export const REQUEST_TYPES = Object.keys(MESSAGES) as RequestType[];

/** Returns the typed request, or null when the message is not a well-formed Skillpin request. */
export function parseRequest(message: unknown): Request | null {
  if (!isRecord(message) || typeof message.type !== 'string') return null;
  if (!Object.hasOwn(MESSAGES, message.type)) return null;
  const fields: Readonly<Record<string, Check>> = MESSAGES[message.type as RequestType].fields;
  for (const [field, check] of Object.entries(fields)) {
    if (!check(message[field])) return null;
  }
  return message as unknown as Request;
}

export function isPrivileged(type: RequestType): boolean {
  return MESSAGES[type].access === 'privileged';
}

/** What a request of this type may change, or null (see MessageDefinition.changes). */
export function changesOf(type: RequestType): StateChangeKind | null {
  return MESSAGES[type].changes;
}
