// Typed messages between the extension's contexts. The background validates every
// incoming message with parseRequest() and checks the sender before answering
// privileged ones (PRODUCT.md §6): only the extension's own pages may approve,
// pin, read skill bytes or export.
import { PINS_FILTER_MAX, PINS_PAGE_MAX, type PinsPage, type PinsPageRequest } from './lists/pins-page';
import type { Approval, OriginReport, Pin, Settings, SkillStatus } from './types';
import type { KeyHistoryEntry } from './trust/records';
import type { ExportStatus } from './export/record';
import type { ArchiveFileChange } from './verify/file-changes';
import type { AgentId } from './desktop/limits';
import type { AgentState } from './desktop/protocol';

export type { ArchiveFileChange, ExportStatus };
import { isSettingsChanges, isSettingsMessage } from './trust/settings';
import { isHttpOrigin } from './origin';
import type { ImportResult } from './trust/backup/import';
import type { ImportPreview } from './trust/backup/preview';
import type { InsertResult } from './chat/insert';

// The answers these modules give, defined beside them (they do not import this module).
export type { ImportResult, ImportSkipReason } from './trust/backup/import';
export type { ImportApprovalPreview, ImportPreview } from './trust/backup/preview';
export type { InsertResult } from './chat/insert';

/** Requests anyone inside the extension may send (popup, options, tests). */
export interface PublicRequests {
  'skillpin:ready': { request: Record<string, never>; response: { ready: true; version: string } };
  /**
   * `clickedTab`: the toolbar popup opened over this tab (Chrome's "On click" grants the tab's origin
   * then: lib/background/site-access.ts); the background checks the tab shows `origin`.
   */
  'skillpin:report': { request: { origin: string; clickedTab?: number }; response: OriginReport | null };
  /**
   * Probe now (a re-check). `tabId` is the tab the popup is about; the background reads that
   * tab's private flag itself (PRODUCT.md §2.1) and never takes the sender's word for it.
   */
  'skillpin:probe': { request: { origin: string; tabId?: number }; response: OriginReport };
}

/** Requests only the extension's own pages may send. */
export interface PrivilegedRequests {
  'skillpin:approve': {
    request: {
      origin: string;
      url: string;
      digestLf: string;
      /** For an archive, the digest of the file set the user was shown (SkillReport.archive.filesDigest). */
      filesDigest?: string;
      confirmUnverified: boolean;
      confirmCrossOrigin: boolean;
      /**
       * Undo of a withdrawal: the approval comes back exactly as it was (this key, this date), or not
       * at all (`digest-changed`, `key-changed`) when the skill's content or key changed since.
       */
      restore?: ApprovalRestore;
    };
    response: ActionResult;
  };
  'skillpin:revoke': { request: { origin: string; url: string }; response: ActionResult };
  'skillpin:trust-key': {
    request: { origin: string; expectedFingerprint: string | null; newFingerprint: string };
    response: ActionResult;
  };
  /**
   * The verified bytes of a skill as text, plus the approved bytes when they differ (for the diff),
   * and for an archive the files added, removed and changed since the approval.
   */
  'skillpin:skill-text': {
    request: { origin: string; url: string };
    response: { current: SkillText | null; approved: SkillText | null; files?: ArchiveFileChange[] | null };
  };
  /** The skill-context block of an approved, current skill (PRODUCT.md §6). */
  'skillpin:skill-context': { request: { origin: string; url: string }; response: ContextResult };
  /**
   * Every approved skill of every origin, with whether it can be handed on now and what the side
   * panel's library shows of it, in list order (lib/background/approved-list.ts); with `offset` and
   * `limit`, only that page of the list (the panel asks for its first rows, then the rest).
   */
  'skillpin:approved-list': { request: { offset?: number; limit?: number }; response: ApprovedSkillSummary[] };
  /**
   * Build the skill context in the background and insert it into the chat composer of `tabId`,
   * provided that tab still shows `chatOrigin` (the chat site the popup offered) and that
   * origin is a chat site.
   */
  'skillpin:insert': { request: { tabId: number; chatOrigin: string; origin: string; url: string }; response: InsertResult };
  /**
   * The side panel's Insert into chat: the same checks and insertion as skillpin:insert, into the
   * panel's active tab `tabId`, provided it still shows `chatOrigin` (the chat site the panel showed
   * when the user chose). A path of its own, so that the hand-off gate's enumeration lists it.
   */
  'skillpin:library-insert': { request: { tabId: number; chatOrigin: string; origin: string; url: string }; response: InsertResult };
  'skillpin:settings-get': { request: Record<string, never>; response: Settings };
  'skillpin:settings-set': { request: { settings: Settings }; response: ActionResult };
  /**
   * What the options page's Save sends: only the fields the user changed, merged in the
   * background over the latest stored settings, so values saved elsewhere meanwhile survive.
   */
  'skillpin:settings-update': { request: { changes: Partial<Settings> }; response: SettingsUpdateResult };
  /** What the organisation's policy sets (docs/policies.md): locked settings, signed-only approval, pinned keys. */
  'skillpin:policy-get': { request: Record<string, never>; response: PolicySummary };
  /** Which sites the user lets Skillpin read (Chrome's site access, Firefox's per-site permissions), and `origin` when named. */
  'skillpin:site-access': { request: { origin?: string }; response: SiteAccessSummary };
  'skillpin:pins-list': { request: Record<string, never>; response: Pin[] };
  /** One page of the pins, sorted by origin and filtered in the background (lib/lists/pins-page.ts). */
  'skillpin:pins-page': { request: PinsPageRequest; response: PinsPage };
  'skillpin:pin-forget': { request: { origin: string }; response: ActionResult };
  /** Every key every origin has shown (PRODUCT.md §5 key history), revoked ones included. */
  'skillpin:key-history': { request: Record<string, never>; response: KeyHistoryEntry[] };
  /** Marks a fingerprint revoked for an origin: never accepted again there, even after forget. */
  'skillpin:key-revoke': { request: { origin: string; fingerprint: string }; response: ActionResult };
  'skillpin:approvals-list': { request: Record<string, never>; response: Approval[] };
  'skillpin:backup': { request: Record<string, never>; response: { json: string } };
  /** What an import of `json` would add and change, against the store as it is now; writes nothing. */
  'skillpin:import-preview': { request: { json: string }; response: ImportPreview };
  /**
   * Applies an import. Approvals of unverified or cross-host skills are imported only when their
   * id (`origin + ' ' + url`) is in the matching confirmation list (the popup's confirmations).
   */
  'skillpin:import': { request: { json: string; confirmUnverified?: string[]; confirmCrossOrigin?: string[] }; response: ImportResult };
  'skillpin:reports-list': { request: Record<string, never>; response: OriginSummary[] };
  /**
   * "Export for upload" (issue 9): the ZIP of an approved, current skill built from its stored
   * verified bytes after the pre-flight, and the export recorded; or why not (one sentence per rule).
   */
  'skillpin:skill-export': { request: { origin: string; url: string }; response: SkillExportResult };
  /** Every recorded export, with whether the exported copy is out of date (lib/export/record.ts). */
  'skillpin:exports-list': { request: Record<string, never>; response: ExportStatus[] };
  /** What the desktop mirror holds and how the connection to the desktop program stands (docs/desktop.md). */
  'skillpin:desktop-status': { request: Record<string, never>; response: DesktopStatus };
  /**
   * Bring the desktop mirror up to date now (after installing the program, or to check again). In
   * Chrome a background started before nativeMessaging was granted cannot reach the program: it
   * then starts again (`restarting`), and this options page opens again by itself.
   */
  'skillpin:desktop-check': { request: Record<string, never>; response: { restarting: boolean; status: DesktopStatus } };
}

export type RequestMap = PublicRequests & PrivilegedRequests;
export type RequestType = keyof RequestMap;
export type Request<T extends RequestType = RequestType> = T extends RequestType ? { type: T } & RequestMap[T]['request'] : never;
export type Response<T extends RequestType> = RequestMap[T]['response'];

export interface ActionResult {
  ok: boolean;
  /** A stable code when ok is false (`not-approvable`, `digest-changed`, `needs-confirmation`, `pin-changed`, …). */
  error?: string;
  message?: string;
}

/** The organisation's policy as pages show it (lib/trust/managed.ts reads it). */
export interface PolicySummary {
  /** True when any policy is set (or may be: while pending). */
  active: boolean;
  /**
   * The organisation's settings have not been read yet (managed storage has not answered): until
   * they are, Skillpin probes, approves and hands off nothing, and pages say it is waiting.
   */
  pending?: boolean;
  /** Settings fields the policy sets: shown as managed and not editable. */
  managedFields: (keyof Settings)[];
  /** Only verified-signed skills can be approved (and handed on). */
  requireSigned: boolean;
  /** Publisher keys the administrator pinned, by origin. */
  pinnedKeys: { origin: string; fingerprint: string }[];
  /** Policy values that were present but unusable, and so not applied. */
  invalid: string[];
}

export interface SiteAccessSummary {
  /** Skillpin may read every http and https site. */
  all: boolean;
  /** Otherwise, the host patterns the user granted (`https://docs.example/*`). */
  sites: string[];
  /** The origin asked about, and whether Skillpin may read it now. */
  origin: { origin: string; readable: boolean } | null;
}

export interface SettingsUpdateResult extends ActionResult {
  /** The settings as stored after the merge (when ok). */
  settings?: Settings;
}

/**
 * Extension pages learn of changes made elsewhere (another tab, an import of pins and approvals) from this
 * storage.local key: the background writes a new StateChange after every change of settings
 * or trust state, and after a probe whose report lists approved skills, and pages listen with storage.onChanged (which fires only on a new value,
 * hence the sequence number).
 */
/** What an Undo of a withdrawal brings back besides the digest (skillpin:approve `restore`). */
export interface ApprovalRestore {
  /** The key the withdrawn approval was bound to (null: the skill was not signed). */
  keyFingerprint: string | null;
  /** When the withdrawn approval was made. */
  approvedAt: number;
}

export const STATE_CHANGE_KEY = 'skillpin:state-change';
/** `reports`: a probe made a new report of an origin with approved skills (no request changed anything). */
export type StateChangeKind = 'settings' | 'trust' | 'reports';
export interface StateChange {
  kind: StateChangeKind;
  seq: number;
  at: number;
}

/** The change a storage value describes, or null when it is not one. */
export function parseStateChange(v: unknown): StateChange | null {
  if (!isRecord(v) || (v.kind !== 'settings' && v.kind !== 'trust' && v.kind !== 'reports')) return null;
  if (typeof v.seq !== 'number' || typeof v.at !== 'number') return null;
  return { kind: v.kind, seq: v.seq, at: v.at };
}

export interface SkillText {
  text: string;
  digestLf: string;
  digestRaw: string;
  size: number;
}

export type SkillExportResult =
  /** `zipBase64`: the ZIP as standard base64 (runtime messages carry JSON, not bytes). */
  | { ok: true; filename: string; zipBase64: string; size: number; exportedAt: number }
  /** `problems`: one plain sentence per broken upload rule (empty when the refusal is of another kind). */
  | { ok: false; error: string; message: string; problems: string[] };

export type ContextResult = { ok: true; context: string; name: string } | { ok: false; error: string; message: string };

/**
 * What needs the user about an approved skill (the side panel says it in plain words):
 * `content-changed` (review the diff, approve again), `key-changed` (the publisher key changed:
 * trust the new key or keep blocking), `key-revoked` (the site offers a key the user revoked),
 * `review-files` (an archive approved before its files were bound: review them), `unusable` (any
 * other reason the hand-off gate refuses, named by `refusal`), `export-outdated` (usable, but the
 * copy exported for upload is out of date).
 */
export type LibraryAttention = 'content-changed' | 'key-changed' | 'key-revoked' | 'review-files' | 'unusable' | 'export-outdated';

/** The most entries one page of skillpin:approved-list may ask for. */
export const APPROVED_PAGE_MAX = 10_000;

/**
 * How the desktop mirror stands: `off` (turned off, nothing is sent), `no-permission` (on, but the
 * browser does not grant nativeMessaging), `restart-needed` (Chrome: the background must start again
 * to reach the program), `waiting` (the organisation's policy is not known yet: nothing is handed
 * over, and the mirror was emptied until it is), `working`, `in-sync`, `host-absent` (the program is not installed for this browser),
 * `forbidden` (it is installed for another extension id), `retrying` (the connection was lost),
 * `unavailable` (this browser cannot run it).
 */
export type DesktopState = 'off' | 'no-permission' | 'restart-needed' | 'waiting' | 'working' | 'in-sync' | 'host-absent' | 'forbidden' | 'retrying' | 'unavailable';

export interface DesktopAgentStatus {
  agent: AgentId;
  /** The user confirmed this revision for this agent (needed only when the skill grants tools or carries scripts). */
  confirmed: boolean;
  /** What the program last did with the copy in this agent's folder (null: nothing reported yet). */
  state: AgentState | null;
  folder: string | null;
  message: string | null;
}

/** One skill handed to the desktop program: an approved skill that may be used now. */
export interface DesktopSkillStatus {
  origin: string;
  url: string;
  name: string;
  /** Its mirror revision (lib/desktop/revision.ts): what a confirmation names. */
  revision: string;
  /** Frontmatter keys that grant tools, servers or hooks. */
  tools: string[];
  /** Files an agent could run. */
  scripts: string[];
  /** It grants tools or carries scripts: each agent folder needs the user's confirmation for this revision. */
  needsConfirmation: boolean;
  agents: DesktopAgentStatus[];
}

export interface DesktopStatus {
  /** The user turned desktop agents on (Settings.desktopMirror). */
  enabled: boolean;
  /** The browser grants the optional nativeMessaging permission. */
  permission: boolean;
  state: DesktopState;
  /** The sentence the program or the browser gave, when there is one. */
  message: string | null;
  hostVersion: string | null;
  /** The terminal command that installs the program for this browser (its extension id filled in). */
  installCommand: string;
  /** The agent folders as the program named them (empty until it answered once). */
  folders: { agent: AgentId; folder: string; present: boolean }[];
  /** The skills handed to the program in the last sync; held by it when `state` is `in-sync`. */
  skills: DesktopSkillStatus[];
  /** Skills that may be used but cannot be mirrored, and why. */
  refused: { origin: string; url: string; message: string }[];
  /** When the program last confirmed the mirror (ms since the epoch); null when it never did in this session. */
  syncedAt: number | null;
}

export interface ApprovedSkillSummary {
  origin: string;
  url: string;
  name: string;
  status: SkillStatus | null;
  usable: boolean;
  approvedAt: number;
  /** The publisher's description (raw: pages show it through lib/text/display.ts), or null. */
  description: string | null;
  /** When the origin's report that lists the skill was made, its skills verified then; null: no finished report. */
  verifiedAt: number | null;
  /** Bytes of the skill-context block Insert and Copy hand on (the report's contextSize), or null. */
  size: number | null;
  /** Token estimate of the skill-context block Insert and Copy hand on (header, note and SKILL.md). */
  tokens: number | null;
  /** What needs the user, or null. */
  attention: LibraryAttention | null;
  /** Why the hand-off gate refuses it now (its error code: `site-excluded`, `policy-requires-signed`, …); null when usable. */
  refusal: string | null;
}

export interface OriginSummary {
  origin: string;
  finishedAt: number | null;
  total: number;
  usable: number;
  warnings: number;
  keyState: string;
}

// --- messages the background sends to content scripts and the offscreen document ---
// Each is defined beside its receiver (lib/chat/, lib/clipboard/), which does not import this module.

export type { ContentInsertMessage, ContentNoticeMessage } from './chat/content-handler';
export type { OffscreenCopyMessage } from './clipboard/offscreen';

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
    fields: { origin, url: str, digestLf: hex64, filesDigest: (v) => v === undefined || hex64(v), confirmUnverified: bool, confirmCrossOrigin: bool, restore: optionalRestore },
  },
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
  'skillpin:library-insert': { access: 'privileged', changes: null, concern: 'approvals', handsOff: 'chat', fields: { tabId: int, chatOrigin: origin, origin, url: str } },
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
