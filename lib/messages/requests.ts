// Every request an extension context may send the background, with its answer: the public ones and
// the privileged ones only the extension's own pages may send (PRODUCT.md §6). The answers defined
// here follow the request map; the rest live beside the module that gives them and are re-exported
// by index.ts.
import type { PinsPage, PinsPageRequest } from '../types/pins-page';
import type { Approval, OriginReport, Pin, Settings, SkillStatus } from '../types';
import type { KeyHistoryEntry } from '../store/records';
import type { ExportStatus } from '../export/record';
import type { ArchiveFileChange } from '../verify/file-changes';
import type { ImportResult } from '../store/backup/import';
import type { ImportPreview } from '../store/backup/preview';
import type { InsertResult } from '../chat/insert';
import type { DesktopAgentId } from '../desktop/protocol/agents';
import type { AgentId } from '../desktop/protocol/limits';
import type { AgentState } from '../desktop/protocol/wire';

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
      /**
       * The findings the user confirmed in the approval's confirmation (findingKey in lib/review/): of
       * the findings that act or can act (PRODUCT.md §6.1), only those named here are recorded as confirmed.
       */
      confirmFindings?: string[];
    };
    response: ActionResult;
  };
  /**
   * Confirms the findings of an approved skill (PRODUCT.md §6.1) when they changed since the approval
   * (a newer rule set judged the approved bytes again): `digestLf` is the approved content the page showed.
   */
  'skillpin:confirm-findings': { request: { origin: string; url: string; digestLf: string; confirmFindings: string[] }; response: ActionResult };
  'skillpin:revoke': { request: { origin: string; url: string }; response: ActionResult };
  'skillpin:trust-key': { request: { origin: string; expectedFingerprint: string | null; newFingerprint: string }; response: ActionResult };
  /**
   * The verified bytes of a skill as text, plus the approved bytes when they differ (for the diff),
   * and for an archive the files added, removed and changed since the approval.
   */
  'skillpin:skill-text': { request: { origin: string; url: string }; response: { current: SkillText | null; approved: SkillText | null; files?: ArchiveFileChange[] | null } };
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
   * provided that tab still shows `chatOrigin` (the chat site the popup or the side panel offered
   * when the user chose) and that origin is a chat site.
   */
  'skillpin:insert': { request: { tabId: number; chatOrigin: string; origin: string; url: string }; response: InsertResult };
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
  /** One page of the pins, sorted by origin and filtered in the background (lib/types/pins-page.ts). */
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
   * "Export for upload": the ZIP of an approved, current skill built from its stored
   * verified bytes after the pre-flight, and the export recorded; or why not (one sentence per rule).
   */
  'skillpin:skill-export': { request: { origin: string; url: string }; response: SkillExportResult };
  /** Every recorded export, with whether the exported copy is out of date (lib/export/record.ts). */
  'skillpin:exports-list': { request: Record<string, never>; response: ExportStatus[] };
  /** What the desktop mirror holds and how the connection to the desktop program stands (docs/desktop.md). */
  'skillpin:desktop-status': { request: Record<string, never>; response: DesktopStatus };
  /**
   * Bring the desktop mirror up to date now (after installing the program, or to check again). In
   * Chrome a background started before nativeMessaging was granted reaches the program through the
   * options page, which carries the native port for it (lib/desktop/relay.ts); nothing restarts.
   */
  'skillpin:desktop-check': { request: Record<string, never>; response: { status: DesktopStatus } };
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
  /**
   * A withdrawal of a skill the desktop program held: the agents that saw it in their folders, which
   * lose it with every MCP client (the next sync removes every copy).
   */
  desktopAgents?: DesktopAgentId[];
}

/** The organisation's policy as pages show it (lib/store/policy.ts reads it). */
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
 * What an Undo of a withdrawal brings back besides the digest (skillpin:approve `restore`): the key
 * the withdrawn approval was bound to (null: the skill was not signed) and when it was made.
 */
export type ApprovalRestore = Pick<Approval, 'keyFingerprint' | 'approvedAt'>;

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
 * copy exported for upload is out of date), `needs-confirmation` (approved, but what it can do — its
 * findings that act or can act — is not all confirmed: the hand-off gate refuses where that matters).
 */
export type LibraryAttention = 'content-changed' | 'key-changed' | 'key-revoked' | 'review-files' | 'unusable' | 'export-outdated' | 'needs-confirmation';

/** The most entries one page of skillpin:approved-list may ask for. */
export const APPROVED_PAGE_MAX = 10_000;

/**
 * How the desktop mirror stands: `off` (turned off, nothing is sent), `no-permission` (on, but the
 * browser does not grant nativeMessaging), `restart-needed` (Chrome: the background must start again
 * to reach the program), `waiting` (the organisation's policy is not known yet: nothing is handed
 * over, and the mirror was emptied until it is), `working`, `in-sync`, `host-absent` (the program is not installed for this browser),
 * `forbidden` (it is installed for another extension id), `retrying` (the connection was lost),
 * `unavailable` (this browser cannot run it), `outdated` (the program is older than the last
 * security fix, MIN_HOST_VERSION: nothing is handed to it until it is updated).
 */
export type DesktopState = 'off' | 'no-permission' | 'restart-needed' | 'waiting' | 'working' | 'in-sync' | 'host-absent' | 'forbidden' | 'retrying' | 'unavailable' | 'outdated';

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
  /** Its mirror revision (lib/desktop/protocol/revision.ts): what a confirmation names. */
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
  /** When `state` is `outdated`: the command that updates the program (lib/background/desktop-status.ts), and the version it must reach. */
  update?: { command: string; minVersion: string } | null;
  /** The agent folders as the program named them (empty until it answered once). */
  folders: { agent: AgentId; folder: string; present: boolean }[];
  /** The desktop agents the program found on this computer (null: not known, the program did not say). */
  found?: DesktopAgentId[] | null;
  /** The skills the program holds, as its last answer said (empty until it answered, and when it cannot be reached). */
  skills: DesktopSkillStatus[];
  /** Skills that may be used but cannot be mirrored, and why. */
  refused: { origin: string; url: string; message: string }[];
  /** When the program last confirmed the mirror (ms since the epoch); null when it never did in this session. */
  syncedAt: number | null;
  /** When the browser or the program last answered an attempt to reach the program; null: not yet. */
  checkedAt: number | null;
  /** Where the browser looks for the program's manifest on this computer (folders or registry keys, with the browser's name). */
  manifestPlaces: string[];
}

export interface ApprovedSkillSummary {
  origin: string;
  url: string;
  name: string;
  status: SkillStatus | null;
  usable: boolean;
  approvedAt: number;
  /** The publisher's description (raw: pages show it through lib/render/display.ts), or null. */
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
