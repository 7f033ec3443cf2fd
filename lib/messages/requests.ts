// Every request an extension context may send the background, with its answer: the public ones and
// the privileged ones only the extension's own pages may send (PRODUCT.md §6).
import type { PinsPage, PinsPageRequest } from '../lists/pins-page';
import type { Approval, OriginReport, Pin, Settings } from '../types';
import type { KeyHistoryEntry } from '../store/records';
import type { ExportStatus } from '../export/record';
import type { ArchiveFileChange } from '../verify/file-changes';
import type { ImportResult } from '../store/backup/import';
import type { ImportPreview } from '../store/backup/preview';
import type { InsertResult } from '../chat/insert';
import type {
  ActionResult,
  ApprovalRestore,
  ApprovedSkillSummary,
  ContextResult,
  DesktopStatus,
  OriginSummary,
  PolicySummary,
  SettingsUpdateResult,
  SiteAccessSummary,
  SkillExportResult,
  SkillText,
} from './answers';

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
