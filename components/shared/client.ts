// The only way the popup and the options page talk to the background. Each method
// sends one typed message from lib/messages/; the transport is injected so tests
// pass a fake and the entrypoints pass browser.runtime.sendMessage.
import { t } from '../../lib/i18n';

/** How many rows the library's first answer carries: more than a panel shows. */
export const LIBRARY_FIRST_ROWS = 40;
import type { RequestMap, RequestType } from '../../lib/messages';
import { LIST_PAGE_ROWS } from '../../lib/types';

export type Send = (msg: unknown) => Promise<unknown>;

type Body<T extends RequestType> = RequestMap[T]['request'];
type Reply<T extends RequestType> = RequestMap[T]['response'];

/** Thrown when the background answers nothing (no listener, or an old worker). */
export class NoAnswerError extends Error {
  constructor(readonly type: RequestType) {
    super(t('err_no_answer', type));
    this.name = 'NoAnswerError';
  }
}

export function createClient(send: Send) {
  async function request<T extends RequestType>(type: T, body: Body<T>, nullable = false): Promise<Reply<T>> {
    const answer = await send({ type, ...body });
    if ((answer === undefined || answer === null) && !nullable) throw new NoAnswerError(type);
    return (answer ?? null) as Reply<T>;
  }
  const none = {} as Record<string, never>;
  return {
    report: (origin: string) => request('skillpin:report', { origin }, true),
    /** The report, from the toolbar popup opened over `tabId` (the on-click grant is noted first). */
    reportFromToolbar: (origin: string, tabId: number) => request('skillpin:report', { origin, clickedTab: tabId }, true),
    /** `tabId`: the tab the popup is about, so the background can apply the private-window rule. */
    probe: (origin: string, tabId?: number | null) => request('skillpin:probe', tabId === undefined || tabId === null ? { origin } : { origin, tabId }),
    approve: (req: Body<'skillpin:approve'>) => request('skillpin:approve', req),
    /** Confirms what an approved skill can do (its findings that act or can act, by findingKey). */
    confirmFindings: (req: Body<'skillpin:confirm-findings'>) => request('skillpin:confirm-findings', req),
    revoke: (origin: string, url: string) => request('skillpin:revoke', { origin, url }),
    trustKey: (origin: string, expectedFingerprint: string | null, newFingerprint: string) => request('skillpin:trust-key', { origin, expectedFingerprint, newFingerprint }),
    skillText: (origin: string, url: string) => request('skillpin:skill-text', { origin, url }),
    skillContext: (origin: string, url: string) => request('skillpin:skill-context', { origin, url }),
    approvedList: () => request('skillpin:approved-list', none),
    /** The approved list from `offset` on (the side panel's rows after its first ones). */
    approvedPage: (offset: number) => request('skillpin:approved-list', { offset }),
    /** The side panel's first rows: what the library asks for as its script starts (components/shared/early.ts). */
    approvedFirstPage: () => request('skillpin:approved-list', { offset: 0, limit: LIBRARY_FIRST_ROWS }),
    insert: (tabId: number, chatOrigin: string, origin: string, url: string) => request('skillpin:insert', { tabId, chatOrigin, origin, url }),
    settingsGet: () => request('skillpin:settings-get', none),
    settingsUpdate: (changes: Body<'skillpin:settings-update'>['changes']) => request('skillpin:settings-update', { changes }),
    policyGet: () => request('skillpin:policy-get', none),
    siteAccess: () => request('skillpin:site-access', none),
    pinsList: () => request('skillpin:pins-list', none),
    pinsPage: (offset: number, limit: number, filter: string) => request('skillpin:pins-page', { offset, limit, filter }),
    /** The first page with no filter: what the options page asks for as it starts (components/shared/early.ts). */
    pinsFirstPage: () => request('skillpin:pins-page', { offset: 0, limit: LIST_PAGE_ROWS, filter: '' }),
    pinForget: (origin: string) => request('skillpin:pin-forget', { origin }),
    keyHistory: () => request('skillpin:key-history', none),
    keyRevoke: (origin: string, fingerprint: string) => request('skillpin:key-revoke', { origin, fingerprint }),
    approvalsList: () => request('skillpin:approvals-list', none),
    backupData: () => request('skillpin:backup', none),
    importPreview: (json: string) => request('skillpin:import-preview', { json }),
    importData: (json: string, confirmations: { confirmUnverified?: string[]; confirmCrossOrigin?: string[] } = {}) => request('skillpin:import', { json, ...confirmations }),
    reportsList: () => request('skillpin:reports-list', none),
    skillExport: (origin: string, url: string) => request('skillpin:skill-export', { origin, url }),
    exportsList: () => request('skillpin:exports-list', none),
    desktopStatus: () => request('skillpin:desktop-status', none),
    desktopCheck: () => request('skillpin:desktop-check', none),
  };
}

export type Client = ReturnType<typeof createClient>;
