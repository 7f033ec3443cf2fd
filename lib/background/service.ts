// The background's behaviour, free of extension APIs: every browser call goes through
// BackgroundPlatform, so the same code runs in Chrome's service worker, Firefox's
// event page and node tests. entrypoints/background.ts only wires events to it.
import { pinsPage } from '../lists/pins-page';
import type { LoadGate } from '../scheduler/load-gate';
import type { RequestGuard } from '../net/request-guard';
import { probeOrigin } from '../engine/probe-origin';
import { createScheduler } from '../scheduler/scheduler';
import { shouldProbe } from '../scheduler/should-probe';
import { buildSkillContext } from '../context/skill-context';
import { exportTrust, importTrust } from '../trust/export-import';
import { previewImport } from '../trust/import-preview';
import { StoreError } from '../trust/errors';
import type { CarryOver } from '../trust/store-api';
import { skippedReport } from '../report/skipped-report';
import { mergeSettings } from '../trust/settings';
import { effectiveSettings, managedConflicts, managedFields, managedKeyFor, noPolicy, parseManaged, withoutManaged, type ManagedPolicy } from '../trust/managed';
import type { TrustStore } from '../trust/store-api';
import {
  isPrivileged,
  parseRequest,
  type ActionResult,
  type ApprovedSkillSummary,
  type ContextResult,
  type OriginSummary,
  type PolicySummary,
  type Request,
  type RequestType,
  type Response,
  type StateChange,
  type StateChangeKind,
  STATE_CHANGE_KEY,
} from '../messages';
import { type Approval, type Clock, type FetchLike, type OriginReport, type Settings, type SkillReport } from '../types';
import type { StoredSkill } from '../trust/records';
import { badgeFor, notCheckedTitle, type Badge } from './badge';
import { notificationFor } from './notify';
import { isPrivateRequest } from './private-request';
import { isExtensionPage, type SenderLike } from './sender';
import { menuModel, parseInsertItemId, type MenuModel } from './menus';
import { approvalDecision, findSkill, handOff, refused, toSkillText } from './handoff-rules';
import { approvable } from '../engine/status';
import { insertIntoChat, type HandOffPlatform } from './hand-off';
import { exportForUpload, exportStatuses, outdatedExports, readExportRecords } from './skill-export';

export interface BackgroundPlatform extends HandOffPlatform {
  setBadge(tabId: number, badge: Badge): Promise<void>;
  notify(id: string, title: string, message: string): Promise<void>;
  /** Open tabs with their URL (http(s) only matter). */
  listTabs(): Promise<{ id: number; url: string | null; incognito: boolean }[]>;
  updateMenus(model: MenuModel): Promise<void>;
  /** Persisted key/value for small background state (notified changes). */
  getLocal(key: string): Promise<unknown>;
  setLocal(key: string, value: unknown): Promise<void>;
  /**
   * The organisation's policy object from managed storage (docs/policies.md); undefined when
   * none is set. Absent: no policy can apply (node tests that do not inject one).
   */
  getManaged?(): Promise<unknown>;
}

export interface BackgroundDeps {
  openStore: () => Promise<TrustStore>;
  fetch: FetchLike;
  /** The browser's redirect-hop guard (lib/net/request-guard.ts); absent under node. */
  guard?: RequestGuard;
  /** Holds a navigation's probe until its page has loaded (lib/scheduler/load-gate.ts); absent: at once. */
  loadGate?: LoadGate;
  clock: Clock;
  platform: BackgroundPlatform;
  runtimeId: string;
  /** `chrome-extension://<id>/` or `moz-extension://<uuid>/`. */
  extensionBase: string;
  version: string;
}

type Handler<T extends RequestType> = (req: Extract<Request, { type: T }>, sender: SenderLike) => Promise<Response<T>>;

function fail(error: string, message: string): ActionResult {
  return { ok: false, error, message };
}

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

export interface BackgroundService {
  /** Resolves once the store is open and the service can answer. */
  ready: Promise<void>;
  handleMessage(message: unknown, sender: SenderLike): Promise<unknown>;
  onNavigation(tabId: number, url: string, incognito: boolean): Promise<OriginReport | null>;
  onTabActivated(tabId: number, url: string | null): Promise<void>;
  onAlarm(name: string): Promise<void>;
  /** A context-menu click; `frameId` is the frame the menu was opened in (0: the top frame). */
  onMenuClick(menuItemId: string, tab: { id?: number; url?: string; incognito?: boolean } | null, frameId?: number): Promise<boolean>;
  onNotificationClick(notificationId: string): string | null;
  refreshMenus(activeUrl: string | null): Promise<void>;
  /** Managed storage changed (storage.onChanged, area `managed`): the policy is read again. */
  onManagedChanged(): Promise<void>;
  /** Test and diagnostics hook. */
  probe(origin: string, force?: boolean): Promise<OriginReport>;
}

export const REVALIDATE_ALARM = 'skillpin:revalidate';
/** Revisits within this window reuse the last report (see isQuiet). */
export const QUIET_REVISIT_MS = 60_000;
const MUTATING: ReadonlySet<RequestType> = new Set<RequestType>([
  'skillpin:approve',
  'skillpin:revoke',
  'skillpin:trust-key',
  'skillpin:settings-set',
  'skillpin:settings-update',
  'skillpin:pin-forget',
  'skillpin:key-revoke',
  'skillpin:import',
]);
const NOTIFIED_KEY = 'skillpin:notified';
const SETTINGS_WRITERS: ReadonlySet<RequestType> = new Set<RequestType>(['skillpin:settings-set', 'skillpin:settings-update']);

/** How long a caller waits for managed storage before it goes on without a policy. */
const POLICY_WAIT_MS = 2000;

export function createBackgroundService(deps: BackgroundDeps): BackgroundService {
  const { platform, clock } = deps;
  let store: TrustStore | null = null;
  /** The last change of trust state or settings made through this worker (its start, at first). */
  let stateChangedAt = deps.clock.now();
  let opening: Promise<TrustStore> | null = null;
  /** Opens the store once; after a failed open (blocked upgrade, storage error) the next call tries again. */
  function openOnce(): Promise<TrustStore> {
    if (store) return Promise.resolve(store);
    opening ??= deps.openStore().then(
      (s) => {
        store = s;
        return s;
      },
      (e: unknown) => {
        opening = null;
        throw e;
      },
    );
    return opening;
  }
  const ready = openOnce().then(() => undefined);

  async function getStore(): Promise<TrustStore> {
    return openOnce();
  }

  // Settings are read from the store once and kept in memory until settings-set writes them
  // (the only writer). A restarted worker starts empty and reads them again.
  let settingsRead: Promise<Settings> | null = null;
  /** The user's own settings, as stored: what writes start from and what an export carries. */
  async function getUserSettings(): Promise<Settings> {
    if (!settingsRead) {
      const reading = getStore().then((s) => s.getSettings());
      settingsRead = reading;
      reading.catch(() => {
        if (settingsRead === reading) settingsRead = null;
      });
    }
    // Each caller gets its own copy: nothing can change the kept settings by accident.
    return structuredClone(await settingsRead);
  }

  // The organisation's policy, read from managed storage once and again after it changes
  // (onManagedChanged). A policy that cannot be read now is not kept: the next call tries again.
  // Chromium can leave storage.managed.get unanswered while a tab's page is still loading (seen
  // with a page whose image never arrives): a caller waits at most POLICY_WAIT_MS, then goes on
  // as if no policy were set, and the read in flight is kept for the callers after it.
  let policyKnown: ManagedPolicy | null = null;
  let policyReading: Promise<ManagedPolicy & { unreadable?: true }> | null = null;
  async function getPolicy(): Promise<ManagedPolicy> {
    if (policyKnown) return policyKnown;
    if (!policyReading) {
      const reading = readPolicy();
      policyReading = reading;
      void reading.then((p) => {
        if (policyReading !== reading) return;
        policyReading = null;
        if (!p.unreadable) policyKnown = p;
      });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<ManagedPolicy>((resolve) => {
      timer = setTimeout(() => resolve({ ...noPolicy(), invalid: ['policy unreadable: managed storage did not answer in time'] }), POLICY_WAIT_MS);
    });
    try {
      return await Promise.race([policyReading, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  async function readPolicy(): Promise<ManagedPolicy & { unreadable?: true }> {
    if (!platform.getManaged) return noPolicy();
    try {
      return parseManaged(await platform.getManaged());
    } catch (e) {
      return { ...noPolicy(), invalid: [`policy unreadable: ${e instanceof Error ? e.message : String(e)}`], unreadable: true };
    }
  }

  /** What everything that acts on settings reads: the user's settings overlaid by the managed ones. */
  async function getSettings(): Promise<Settings> {
    const [user, policy] = await Promise.all([getUserSettings(), getPolicy()]);
    return effectiveSettings(user, policy);
  }

  function managedRefusal(fields: readonly string[]): ActionResult {
    return fail('managed-setting', `Your organisation manages ${fields.join(', ')}; ${fields.length === 1 ? 'it' : 'they'} cannot be changed here.`);
  }

  const scheduler = createScheduler({
    clock,
    run: async (origin, opts) => {
      const s = await getStore();
      const settings = await getSettings();
      const managedKeys = (await getPolicy()).pinnedKeys;
      const report = await probeOrigin(origin, { fetch: deps.fetch, guard: deps.guard, store: s, clock, settings, managedKeys }, { force: opts.force });
      await afterReport(report);
      return report;
    },
  });

  async function afterReport(report: OriginReport): Promise<void> {
    await updateBadges(report);
    await maybeNotify(report);
    await refreshMenusSafe();
  }

  async function updateBadges(report: OriginReport): Promise<void> {
    const tabs = await platform.listTabs();
    const badge = badgeFor(report);
    await Promise.all(tabs.filter((t) => t.url && originOf(t.url) === report.origin).map((t) => platform.setBadge(t.id, badge).catch(() => undefined)));
  }

  async function maybeNotify(report: OriginReport): Promise<void> {
    const plan = notificationFor(report, outdatedExports(await readExportRecords((k) => platform.getLocal(k)), report));
    if (!plan) return;
    const stored = await platform.getLocal(NOTIFIED_KEY);
    const seen = Array.isArray(stored) ? stored.filter((x): x is string => typeof x === 'string') : [];
    if (seen.includes(plan.key)) return;
    await platform.notify(`skillpin-origin|${report.origin}`, plan.title, plan.message);
    await platform.setLocal(NOTIFIED_KEY, [...seen, plan.key].slice(-500));
  }

  let lastActiveUrl: string | null = null;
  async function refreshMenusSafe(): Promise<void> {
    try {
      await refreshMenus(lastActiveUrl);
    } catch {
      // Menus are a convenience; a failure here must not break probing.
    }
  }

  async function refreshMenus(activeUrl: string | null): Promise<void> {
    lastActiveUrl = activeUrl;
    const approved = await approvedList();
    const { chatSites } = await getSettings();
    await platform.updateMenus(menuModel(approved, activeUrl ? originOf(activeUrl) : null, chatSites));
  }

  async function currentReport(origin: string): Promise<OriginReport | null> {
    const s = await getStore();
    const report = await s.getReport(origin);
    // A report left in 'probing' by a stopped worker is stale: nothing is in flight here.
    if (report && report.state === 'probing' && !scheduler.inFlight(origin)) return null;
    return report;
  }

  /**
   * The report of an origin not probed yet, for a request from a Skillpin page (approve, trust a
   * key, a context): the same rules as the popup's re-check (pause, private windows, the lists),
   * so no such request can make the first request to an origin open only in a private window.
   */
  async function freshReport(origin: string, sender: SenderLike | null): Promise<OriginReport> {
    const settings = await getSettings();
    const incognito = settings.probeInPrivate || sender === null ? false : await privateRequest(origin, undefined, sender);
    const decision = shouldProbe(origin + '/', settings, { incognito });
    if (!decision.probe) return skippedReport(origin, decision.reason, clock.now());
    return scheduler.probe(origin, { force: false });
  }

  async function currentBytes(s: TrustStore, origin: string, skill: SkillReport): Promise<StoredSkill | null> {
    if (!skill.url || !skill.actual) return null;
    return s.getSkill(origin, skill.url, skill.actual.lf);
  }

  /** The context block of an approved skill whose current bytes are the approved bytes. */
  async function contextFor(origin: string, url: string, sender: SenderLike | null): Promise<ContextResult> {
    const s = await getStore();
    const report = (await currentReport(origin)) ?? (await freshReport(origin, sender));
    const allowed = handOff(findSkill(report, url), await getPolicy());
    if (!allowed.ok) return allowed;
    const { skill, approval } = allowed;
    const stored = await s.getSkill(origin, url, approval.digestLf);
    if (!stored) return { ok: false, error: 'bytes-missing', message: 'The verified bytes are not stored; re-check the site.' };
    const context = buildSkillContext({
      origin,
      name: skill.name,
      url,
      digestLf: stored.digestLf,
      digestRaw: stored.digestRaw,
      signatureState: allowed.signatureState,
      keyFingerprint: approval.keyFingerprint,
      bytes: stored.bytes,
    });
    return { ok: true, context, name: skill.name };
  }

  async function approvedList(): Promise<ApprovedSkillSummary[]> {
    const s = await getStore();
    const approvals = await s.listApprovals();
    const out: ApprovedSkillSummary[] = [];
    const reports = new Map<string, OriginReport | null>();
    const policy = await getPolicy();
    for (const a of approvals) {
      if (!reports.has(a.origin)) reports.set(a.origin, await s.getReport(a.origin));
      const skill = findSkill(reports.get(a.origin) ?? null, a.url);
      const allowed = handOff(skill, policy);
      const usable = allowed.ok && allowed.approval.digestLf === a.digestLf;
      out.push({ origin: a.origin, url: a.url, name: skill?.name ?? a.name, status: skill?.status ?? null, usable, approvedAt: a.approvedAt });
    }
    return out.sort((x, y) => x.origin.localeCompare(y.origin) || x.name.localeCompare(y.name));
  }

  async function writeSettings(settings: Settings): Promise<void> {
    const s = await getStore();
    settingsRead = null;
    try {
      await s.putSettings(settings);
    } finally {
      // Read again next time, as stored (whether the write succeeded or not).
      settingsRead = null;
    }
    // The insert menu's patterns follow the chat-site list.
    await refreshMenusSafe();
  }

  // Open extension pages follow changes made elsewhere through this key (messages.ts,
  // STATE_CHANGE_KEY). The sequence makes every write a new value, so storage.onChanged fires.
  let changeSeq = 0;
  async function announceChange(kind: StateChangeKind): Promise<void> {
    const change: StateChange = { kind, seq: ++changeSeq, at: clock.now() };
    try {
      await platform.setLocal(STATE_CHANGE_KEY, change);
    } catch {
      // Pages then show what they loaded until reloaded; the change itself is stored.
    }
  }

  const handlers: { [T in RequestType]: Handler<T> } = {
    'skillpin:ready': async () => {
      await getStore();
      return { ready: true, version: deps.version };
    },
    'skillpin:report': async (req) => {
      // While a probe of the origin is running, answer its result rather than the older
      // report (or null): joining the probe in flight starts no new one.
      if (scheduler.inFlight(req.origin)) return scheduler.probe(req.origin, { force: false });
      return currentReport(req.origin);
    },
    'skillpin:probe': async (req, sender) => {
      // An explicit re-check still honours pause, the private-window rule and the allow/deny
      // lists: nothing is requested from an origin the user excluded (the popup shows why).
      const settings = await getSettings();
      const incognito = settings.probeInPrivate ? false : await privateRequest(req.origin, req.tabId, sender);
      const decision = shouldProbe(req.origin + '/', settings, { incognito });
      if (!decision.probe) return skippedReport(req.origin, decision.reason, clock.now());
      return scheduler.probe(req.origin, { force: true });
    },

    'skillpin:approve': async (req, sender) => {
      const s = await getStore();
      const report = (await currentReport(req.origin)) ?? (await freshReport(req.origin, sender));
      const policy = await getPolicy();
      const decision = approvalDecision(findSkill(report, req.url), req, policy);
      if (!decision.ok) return refused(decision);
      const { skill, url, status } = decision;
      const stored = await currentBytes(s, req.origin, skill);
      if (!stored) return fail('bytes-missing', 'The verified bytes are not stored; re-check the site.');
      const approval: Approval = {
        origin: req.origin,
        url,
        digestLf: stored.digestLf,
        digestRaw: stored.digestRaw,
        keyFingerprint: status === 'verified-signed' ? (report?.key.pinned?.fingerprint ?? null) : null,
        statusAtApproval: status,
        name: skill.name,
        approvedAt: clock.now(),
      };
      await s.approve(approval, stored, managedKeyFor(policy, req.origin)?.fingerprint ?? null);
      await scheduler.probe(req.origin, { force: false });
      return { ok: true };
    },
    'skillpin:revoke': async (req) => {
      const s = await getStore();
      await s.revoke(req.origin, req.url);
      await scheduler.probe(req.origin, { force: false });
      return { ok: true };
    },
    'skillpin:trust-key': async (req, sender) => {
      const s = await getStore();
      const report = (await currentReport(req.origin)) ?? (await freshReport(req.origin, sender));
      if (managedKeyFor(await getPolicy(), req.origin)) {
        return fail('key-managed', 'Your administrator pinned the key for this site; it cannot be changed here.');
      }
      const offered = report?.key.offered;
      if (!report || !offered || offered.fingerprint !== req.newFingerprint) {
        return fail('key-not-offered', 'The site does not offer that key now; re-check the site.');
      }
      if (report.key.state === 'conflict') return fail('key-conflict', 'The site offers two different keys; there is no single key to trust.');
      if (report.key.state === 'revoked') return fail('key-revoked', 'You revoked this key for the site; it is never trusted again.');
      // PRODUCT.md §5: approvals whose bytes are unchanged carry over to the new key. The digest a
      // skill has now is the one its bytes passed (every status from key-changed on has passed it).
      const carry: CarryOver[] = [];
      for (const skill of report.skills) {
        if (skill.url && skill.actual && (skill.status === 'key-changed' || approvable(skill.status))) carry.push({ url: skill.url, digestLf: skill.actual.lf });
      }
      let replaced: boolean;
      try {
        replaced = await s.replacePin(req.origin, req.expectedFingerprint, offered.key, offered.fingerprint, clock.now(), carry);
      } catch (e) {
        if (e instanceof StoreError && e.code === 'key-revoked') return fail('key-revoked', 'You revoked this key for the site; it is never trusted again.');
        throw e;
      }
      if (!replaced) return fail('pin-changed', 'The pinned key changed in the meantime; review it again.');
      await scheduler.probe(req.origin, { force: true });
      return { ok: true };
    },
    'skillpin:skill-text': async (req) => {
      const s = await getStore();
      const report = await currentReport(req.origin);
      const skill = findSkill(report, req.url);
      const current = skill ? toSkillText(await currentBytes(s, req.origin, skill)) : toSkillText(await s.getLatestSkill(req.origin, req.url));
      const approval = await s.getApproval(req.origin, req.url);
      const approved = approval ? toSkillText(await s.getSkill(req.origin, req.url, approval.digestLf)) : null;
      return { current, approved };
    },
    'skillpin:skill-context': async (req, sender) => contextFor(req.origin, req.url, sender),
    'skillpin:approved-list': async () => approvedList(),
    'skillpin:insert': async (req, sender) => {
      const ctx = await contextFor(req.origin, req.url, sender);
      if (!ctx.ok) return { ok: false, method: 'none', message: ctx.message };
      return insertIntoChat(platform, (await getSettings()).chatSites, { tabId: req.tabId, frameId: 0 }, ctx.context, req.chatOrigin);
    },
    'skillpin:settings-get': async () => getSettings(),
    'skillpin:settings-set': async (req) => {
      // A sender that predates chatSites omits it (the validator allows that): keep the stored list.
      const sent: Partial<Settings> = req.settings;
      const user = await getUserSettings();
      const chatSites = Array.isArray(sent.chatSites) ? sent.chatSites : user.chatSites;
      const settings: Settings = { ...req.settings, chatSites };
      // A managed field may be sent only with the policy's value (what settings-get answered);
      // any other value is refused and nothing is written. The user's own value stays stored.
      const policy = await getPolicy();
      const conflicts = managedConflicts(settings, policy);
      if (conflicts.length > 0) return managedRefusal(conflicts);
      await writeSettings(mergeSettings(user, withoutManaged(settings, policy)));
      return { ok: true };
    },
    'skillpin:settings-update': async (req) => {
      // A change to a field the organisation manages is refused as a whole: nothing is written.
      const policy = await getPolicy();
      const conflicts = managedConflicts(req.changes, policy);
      if (conflicts.length > 0) return managedRefusal(conflicts);
      // Only the fields the user changed, over what is stored now (not over what the page
      // loaded): a value another page saved meanwhile survives.
      const merged = mergeSettings(await getUserSettings(), withoutManaged(req.changes, policy));
      await writeSettings(merged);
      return { ok: true, settings: await getSettings() };
    },
    'skillpin:policy-get': async () => {
      const policy = await getPolicy();
      const summary: PolicySummary = {
        active: managedFields(policy).length > 0 || policy.requireSigned || policy.pinnedKeys.length > 0,
        managedFields: managedFields(policy),
        requireSigned: policy.requireSigned,
        pinnedKeys: policy.pinnedKeys.map((k) => ({ origin: k.origin, fingerprint: k.fingerprint })),
        invalid: [...policy.invalid],
      };
      return summary;
    },
    'skillpin:pins-list': async () => (await getStore()).listPins(),
    'skillpin:pins-page': async (req) => pinsPage(await (await getStore()).listPins(), req),
    'skillpin:pin-forget': async (req) => {
      await (await getStore()).forgetPin(req.origin);
      return { ok: true };
    },
    'skillpin:key-history': async () => (await getStore()).listKeyHistory(),
    'skillpin:key-revoke': async (req) => {
      const s = await getStore();
      await s.revokeKey(req.origin, req.fingerprint, clock.now());
      // The origin's report must show the revocation at once (its skills signed by that key are blocked).
      if (await s.getReport(req.origin)) await scheduler.probe(req.origin, { force: false }).catch(() => undefined);
      return { ok: true };
    },
    'skillpin:approvals-list': async () => (await getStore()).listApprovals(),
    'skillpin:export': async () => {
      const s = await getStore();
      // The user's own settings: a policy's values belong to the organisation, not to the file.
      const json = exportTrust(await s.listPins(), await s.listApprovals(), clock.now(), { keys: await s.listKeyHistory(), settings: await getUserSettings() });
      return { json };
    },
    'skillpin:import-preview': async (req) => previewImport(await getStore(), req.json, managedFields(await getPolicy())),
    'skillpin:import': async (req) => {
      settingsRead = null;
      try {
        const confirmations = { confirmUnverified: req.confirmUnverified ?? [], confirmCrossOrigin: req.confirmCrossOrigin ?? [] };
        return await importTrust(await getStore(), req.json, clock.now(), confirmations, managedFields(await getPolicy()));
      } finally {
        // The file may have written settings: read them again, as stored.
        settingsRead = null;
        await refreshMenusSafe();
      }
    },
    'skillpin:reports-list': async () => {
      const reports = await (await getStore()).listReports();
      const out: OriginSummary[] = reports.map((r) => ({
        origin: r.origin,
        finishedAt: r.finishedAt,
        total: r.summary.total,
        usable: r.summary.usable,
        warnings: r.summary.warnings,
        keyState: r.key.state,
      }));
      return out.sort((a, b) => a.origin.localeCompare(b.origin));
    },
    'skillpin:skill-export': async (req, sender) =>
      exportForUpload(
        {
          store: await getStore(),
          report: async (o) => (await currentReport(o)) ?? (await freshReport(o, sender)),
          getLocal: (k) => platform.getLocal(k),
          setLocal: (k, v) => platform.setLocal(k, v),
          now: () => clock.now(),
        },
        req.origin,
        req.url,
      ),
    'skillpin:exports-list': async () => exportStatuses((k) => platform.getLocal(k), currentReport),
  };

  /**
   * Whether a probe request is about a private window, judged on the browser's tab list
   * (private-request.ts). When the tabs cannot be listed the answer is yes: a probe that
   * should not happen costs more than a re-check that is refused.
   */
  async function privateRequest(origin: string, tabId: number | undefined, sender: SenderLike): Promise<boolean> {
    try {
      return isPrivateRequest(await platform.listTabs(), origin, tabId, sender);
    } catch {
      return true;
    }
  }

  async function handleMessage(message: unknown, sender: SenderLike): Promise<unknown> {
    const req = parseRequest(message);
    if (!req) return { ok: false, error: 'bad-request', message: 'Not a well-formed Skillpin request.' };
    if (isPrivileged(req.type) && !isExtensionPage(sender, deps.runtimeId, deps.extensionBase)) {
      return { ok: false, error: 'forbidden', message: 'Only Skillpin pages may do this.' };
    }
    if (MUTATING.has(req.type)) stateChangedAt = clock.now();
    const handler = handlers[req.type] as (r: Request, s: SenderLike) => Promise<unknown>;
    try {
      return await handler(req, sender);
    } catch (err) {
      return { ok: false, error: 'internal', message: err instanceof Error ? err.message : String(err) };
    } finally {
      // Also after a failed write: pages then read again and show what is really stored.
      if (MUTATING.has(req.type)) await announceChange(SETTINGS_WRITERS.has(req.type) ? 'settings' : 'trust');
    }
  }

  async function onNavigation(tabId: number, url: string, incognito: boolean): Promise<OriginReport | null> {
    const settings = await getSettings();
    const decision = shouldProbe(url, settings, { incognito });
    if (!decision.probe) {
      await platform.setBadge(tabId, { text: '', color: '#5b6470', title: notCheckedTitle(decision.reason) }).catch(() => undefined);
      return null;
    }
    const known = await currentReport(decision.origin);
    if (known) await platform.setBadge(tabId, badgeFor(known)).catch(() => undefined);
    if (known && isQuiet(known)) return known;
    // Off the page's path: nothing is fetched, hashed or written before the page has loaded.
    if (deps.loadGate && !(await deps.loadGate.afterLoad(tabId, url))) return known;
    return scheduler.probe(decision.origin, { force: false });
  }

  /**
   * A report finished less than a minute ago, after the last change of trust state or
   * settings in this worker, is still exactly what a probe would produce: every cache
   * lifetime is at least 5 minutes and every backoff at least 1 minute, so that probe would
   * make no request. Skipping it spares the page's CPU on quick revisits.
   */
  function isQuiet(report: OriginReport): boolean {
    if (report.state !== 'done' || report.finishedAt === null) return false;
    if (report.finishedAt < stateChangedAt) return false;
    const age = clock.now() - report.finishedAt;
    return age >= 0 && age < QUIET_REVISIT_MS;
  }

  async function onTabActivated(tabId: number, url: string | null): Promise<void> {
    const origin = url ? originOf(url) : null;
    const report = origin ? await currentReport(origin) : null;
    await platform.setBadge(tabId, badgeFor(report)).catch(() => undefined);
    await refreshMenus(url).catch(() => undefined);
  }

  async function onAlarm(name: string): Promise<void> {
    if (name !== REVALIDATE_ALARM) return;
    const s = await getStore();
    const settings = await getSettings();
    if (settings.paused) return;
    const approvals = await s.listApprovals();
    const origins = [...new Set(approvals.map((a) => a.origin))];
    for (const origin of origins) {
      await scheduler.probe(origin, { force: false }).catch(() => undefined);
    }
  }

  async function onMenuClick(menuItemId: string, tab: { id?: number; url?: string; incognito?: boolean } | null, frameId = 0): Promise<boolean> {
    const tabId = tab?.id ?? null;
    // The menu was used in this tab: a probe it needs follows that tab's private flag.
    const sender: SenderLike = tab ? { tab } : {};
    if (menuItemId === 'skillpin-copy') {
      const origin = tab?.url ? originOf(tab.url) : null;
      if (!origin) return false;
      const approved = (await approvedList()).filter((a) => a.origin === origin && a.usable);
      const blocks: string[] = [];
      for (const a of approved) {
        const ctx = await contextFor(a.origin, a.url, sender);
        if (ctx.ok) blocks.push(ctx.context);
      }
      if (blocks.length === 0) return false;
      return platform.copyText(blocks.join('\n\n'));
    }
    const item = parseInsertItemId(menuItemId);
    if (item !== null) {
      const { origin, url } = item;
      if (tabId === null) return false;
      const ctx = await contextFor(origin, url, sender);
      if (!ctx.ok) return false;
      const result = await insertIntoChat(platform, (await getSettings()).chatSites, { tabId, frameId }, ctx.context, null);
      return result.ok;
    }
    return false;
  }

  async function onManagedChanged(): Promise<void> {
    policyKnown = null;
    policyReading = null;
    // Reports made under the old policy are not quiet any more (isQuiet): the next visit re-probes.
    stateChangedAt = clock.now();
    await refreshMenusSafe();
    // Open pages follow it like any other settings change (the options page marks managed fields).
    await announceChange('settings');
  }

  function onNotificationClick(notificationId: string): string | null {
    if (!notificationId.startsWith('skillpin-origin|')) return null;
    const origin = notificationId.slice('skillpin-origin|'.length);
    return originOf(origin) === origin ? origin : null;
  }

  return {
    ready,
    handleMessage,
    onNavigation,
    onTabActivated,
    onAlarm,
    onMenuClick,
    onNotificationClick,
    refreshMenus,
    onManagedChanged,
    probe: (origin, force = false) => scheduler.probe(origin, { force }),
  };
}
