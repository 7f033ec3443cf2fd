// Typed messages between the extension's contexts. The background validates every
// incoming message with parseRequest() and checks the sender before answering
// privileged ones (PRODUCT.md §6): only the extension's own pages may approve,
// pin, read skill bytes or export.
import type { Approval, OriginReport, Pin, Settings, SkillStatus } from './types';
import { isChatSiteList } from './chat/sites';
import { isSettingsChanges } from './trust/settings';

/** Requests anyone inside the extension may send (popup, options, tests). */
export interface PublicRequests {
  'skillpin:ready': { request: Record<string, never>; response: { ready: true; version: string } };
  'skillpin:report': { request: { origin: string }; response: OriginReport | null };
  /**
   * Probe now (a re-check). `tabId` is the tab the popup is about; the background reads that
   * tab's private flag itself (PRODUCT.md §2.1) and never takes the sender's word for it.
   */
  'skillpin:probe': { request: { origin: string; tabId?: number }; response: OriginReport };
}

/** Requests only the extension's own pages may send. */
export interface PrivilegedRequests {
  'skillpin:approve': {
    request: { origin: string; url: string; digestLf: string; confirmUnverified: boolean; confirmCrossOrigin: boolean };
    response: ActionResult;
  };
  'skillpin:revoke': { request: { origin: string; url: string }; response: ActionResult };
  'skillpin:trust-key': {
    request: { origin: string; expectedFingerprint: string | null; newFingerprint: string };
    response: ActionResult;
  };
  /** The verified bytes of a skill as text, plus the approved bytes when they differ (for the diff). */
  'skillpin:skill-text': {
    request: { origin: string; url: string };
    response: { current: SkillText | null; approved: SkillText | null };
  };
  /** The skill-context block of an approved, current skill (PRODUCT.md §6). */
  'skillpin:skill-context': { request: { origin: string; url: string }; response: ContextResult };
  /** Every approved skill of every origin, with whether it can be handed on now. */
  'skillpin:approved-list': { request: Record<string, never>; response: ApprovedSkillSummary[] };
  /**
   * Build the context in the background and insert it into the chat composer of `tabId`,
   * provided that tab still shows `chatOrigin` (the chat site the popup offered) and that
   * origin is a chat site.
   */
  'skillpin:insert': { request: { tabId: number; chatOrigin: string; origin: string; url: string }; response: InsertResult };
  'skillpin:settings-get': { request: Record<string, never>; response: Settings };
  'skillpin:settings-set': { request: { settings: Settings }; response: ActionResult };
  /**
   * What the options page's Save sends: only the fields the user changed, merged in the
   * background over the latest stored settings, so values saved elsewhere meanwhile survive.
   */
  'skillpin:settings-update': { request: { changes: Partial<Settings> }; response: SettingsUpdateResult };
  'skillpin:pins-list': { request: Record<string, never>; response: Pin[] };
  'skillpin:pin-forget': { request: { origin: string }; response: ActionResult };
  'skillpin:approvals-list': { request: Record<string, never>; response: Approval[] };
  'skillpin:export': { request: Record<string, never>; response: { json: string } };
  'skillpin:import': { request: { json: string }; response: ImportResult };
  'skillpin:reports-list': { request: Record<string, never>; response: OriginSummary[] };
}

export type RequestMap = PublicRequests & PrivilegedRequests;
export type RequestType = keyof RequestMap;
export type Request<T extends RequestType = RequestType> = T extends RequestType ? { type: T } & RequestMap[T]['request'] : never;
export type Response<T extends RequestType> = RequestMap[T]['response'];

export const PUBLIC_TYPES: readonly RequestType[] = ['skillpin:ready', 'skillpin:report', 'skillpin:probe'];

export interface ActionResult {
  ok: boolean;
  /** A stable code when ok is false (`not-approvable`, `digest-changed`, `needs-confirmation`, `pin-changed`, …). */
  error?: string;
  message?: string;
}

export interface SettingsUpdateResult extends ActionResult {
  /** The settings as stored after the merge (when ok). */
  settings?: Settings;
}

/**
 * Extension pages learn of changes made elsewhere (another tab, an import of pins and approvals) from this
 * storage.local key: the background writes a new StateChange after every change of settings
 * or trust state, and pages listen with storage.onChanged (which fires only on a new value,
 * hence the sequence number).
 */
export const STATE_CHANGE_KEY = 'skillpin:state-change';
export type StateChangeKind = 'settings' | 'trust';
export interface StateChange {
  kind: StateChangeKind;
  seq: number;
  at: number;
}

/** The change a storage value describes, or null when it is not one. */
export function parseStateChange(v: unknown): StateChange | null {
  if (!isRecord(v) || (v.kind !== 'settings' && v.kind !== 'trust')) return null;
  if (typeof v.seq !== 'number' || typeof v.at !== 'number') return null;
  return { kind: v.kind, seq: v.seq, at: v.at };
}

export interface SkillText {
  text: string;
  digestLf: string;
  digestRaw: string;
  size: number;
}

export type ContextResult = { ok: true; context: string; name: string } | { ok: false; error: string; message: string };

export interface InsertResult {
  ok: boolean;
  /** How the text got in, or `clipboard` when insertion failed and the text was copied instead. */
  method: 'insert-text' | 'insert-lines' | 'replacement-text' | 'value-setter' | 'clipboard' | 'none';
  message: string;
}

export interface ApprovedSkillSummary {
  origin: string;
  url: string;
  name: string;
  status: SkillStatus | null;
  usable: boolean;
  approvedAt: number;
}

export interface OriginSummary {
  origin: string;
  finishedAt: number | null;
  total: number;
  usable: number;
  warnings: number;
  keyState: string;
}

export interface ImportResult {
  ok: boolean;
  pinsAdded: number;
  pinsUnchanged: number;
  /** Pins that differ from the stored one: never replaced silently. */
  pinConflicts: { origin: string; stored: string; imported: string }[];
  approvalsAdded: number;
  /** Approvals already stored exactly as imported. */
  approvalsUnchanged?: number;
  /** Approvals not imported, and why: the origin's pin conflicts, the approval names another key than the pin, or a different approval is stored. */
  approvalsSkipped?: { origin: string; url: string; reason: 'pin-conflict' | 'pin-mismatch' | 'different-approval' }[];
  errors: string[];
}

// --- messages the background sends to content scripts and the offscreen document ---

export interface ContentInsertMessage {
  type: 'skillpin:content-insert';
  text: string;
  /** The origin the background checked as a chat site: a page of any other origin refuses. */
  origin: string;
}

/** After a failed insertion, what the page shows the user (the background copied the text, or could not). */
export interface ContentNoticeMessage {
  type: 'skillpin:content-notice';
  text: string;
  tone: 'info' | 'warning';
}

export interface OffscreenCopyMessage {
  type: 'skillpin:offscreen-copy';
  text: string;
}

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
const origin: Check = (v) => {
  if (typeof v !== 'string' || v.length > 2048) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
};
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const settingsShape: Check = (v) =>
  isRecord(v) &&
  bool(v.paused) &&
  bool(v.probeInPrivate) &&
  bool(v.allowListOnly) &&
  bool(v.legacyIndex) &&
  Array.isArray(v.allowList) &&
  v.allowList.every(str) &&
  Array.isArray(v.denyList) &&
  v.denyList.every(str) &&
  isRecord(v.reviewers) &&
  Array.isArray(v.snapshotKeys) &&
  // Optional on the wire so a sender that predates it still works; the background stores [].
  (v.chatSites === undefined || isChatSiteList(v.chatSites));

const SCHEMAS: { [T in RequestType]: Record<string, Check> } = {
  'skillpin:ready': {},
  'skillpin:report': { origin },
  'skillpin:probe': { origin, tabId: optionalInt },
  'skillpin:approve': { origin, url: str, digestLf: hex64, confirmUnverified: bool, confirmCrossOrigin: bool },
  'skillpin:revoke': { origin, url: str },
  'skillpin:trust-key': { origin, expectedFingerprint: strOrNull, newFingerprint: str },
  'skillpin:skill-text': { origin, url: str },
  'skillpin:skill-context': { origin, url: str },
  'skillpin:approved-list': {},
  'skillpin:insert': { tabId: int, chatOrigin: origin, origin, url: str },
  'skillpin:settings-get': {},
  'skillpin:settings-set': { settings: settingsShape },
  'skillpin:settings-update': { changes: isSettingsChanges },
  'skillpin:pins-list': {},
  'skillpin:pin-forget': { origin },
  'skillpin:approvals-list': {},
  'skillpin:export': {},
  'skillpin:import': { json: (v) => typeof v === 'string' && v.length <= 16 * 1024 * 1024 },
  'skillpin:reports-list': {},
};

/** Returns the typed request, or null when the message is not a well-formed Skillpin request. */
export function parseRequest(message: unknown): Request | null {
  if (!isRecord(message) || typeof message.type !== 'string') return null;
  if (!Object.prototype.hasOwnProperty.call(SCHEMAS, message.type)) return null;
  const schema = SCHEMAS[message.type as RequestType];
  for (const [field, check] of Object.entries(schema)) {
    if (!check(message[field])) return null;
  }
  return message as unknown as Request;
}

export function isPrivileged(type: RequestType): boolean {
  return !PUBLIC_TYPES.includes(type);
}
