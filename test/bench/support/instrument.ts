// Outside instrumentation of the extension's service worker: a wrapper around
// action.setBadgeText and webNavigation.onCommitted / onCompleted listeners, all stamping the
// worker's own performance.now(), so "probe start → badge set" is measured on one clock. A
// navigation's probe starts at the page's load event (lib/background/page-events.ts), so the
// verdict is counted from the top frame's onCompleted.
import type { Worker } from '@playwright/test';

export interface BadgeEvent {
  tabId: number;
  text: string;
  /** When the call resolved. */
  t: number;
}

export interface CommitEvent {
  tabId: number;
  url: string;
  t: number;
}

export interface FetchEvent {
  url: string;
  start: number;
  end: number;
}

export interface TxEvent {
  stores: string;
  mode: string;
  start: number;
  end: number;
}

/** One declarativeNetRequest.updateSessionRules call (the request guard's permits). */
export interface RuleEvent {
  start: number;
  end: number;
  added: number;
  removed: number;
}

export interface Probe {
  badges: BadgeEvent[];
  commits: CommitEvent[];
  /** webNavigation.onCompleted of top frames: the page's load event, where the probe starts. */
  loads: CommitEvent[];
  fetches: FetchEvent[];
  txs: TxEvent[];
  rules: RuleEvent[];
}

type Listen = { addListener(f: (d: { tabId: number; url: string; frameId: number }) => void): void };
type Setter = (details: { tabId?: number; text: string | null }) => Promise<void>;
type RuleUpdate = (change: { addRules?: unknown[]; removeRuleIds?: number[] }) => Promise<void>;

export async function instrumentWorker(sw: Worker): Promise<void> {
  await sw.evaluate(() => {
    const g = globalThis as unknown as {
      __skillpinBenchProbe?: Probe;
      chrome: { action: { setBadgeText: Setter }; webNavigation: { onCommitted: Listen; onCompleted: Listen }; declarativeNetRequest: { updateSessionRules: RuleUpdate } };
      browser?: { action?: { setBadgeText: Setter } };
    };
    if (g.__skillpinBenchProbe) return;
    const probe: Probe = { badges: [], commits: [], loads: [], fetches: [], txs: [], rules: [] };
    g.__skillpinBenchProbe = probe;
    const dnr = g.chrome.declarativeNetRequest;
    const origUpdate = dnr.updateSessionRules.bind(dnr);
    dnr.updateSessionRules = async (change) => {
      const start = performance.now();
      try {
        return await origUpdate(change);
      } finally {
        probe.rules.push({ start, end: performance.now(), added: change.addRules?.length ?? 0, removed: change.removeRuleIds?.length ?? 0 });
      }
    };
    // The background looks the global fetch up at call time: a wrapper sees every probe request.
    const gf = globalThis as unknown as { fetch: typeof fetch };
    const origFetch = gf.fetch.bind(globalThis);
    gf.fetch = async (input, init) => {
      const start = performance.now();
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      try {
        return await origFetch(input, init);
      } finally {
        probe.fetches.push({ url, start, end: performance.now() });
      }
    };
    const origTx = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode, opts?: IDBTransactionOptions) {
      const tx = origTx.call(this, names, mode, opts);
      const start = performance.now();
      const done = (): void => void probe.txs.push({ stores: String(names), mode: mode ?? 'readonly', start, end: performance.now() });
      tx.addEventListener('complete', done);
      tx.addEventListener('abort', done);
      return tx;
    } as typeof IDBDatabase.prototype.transaction;
    const wrap = (ns: { setBadgeText: Setter } | undefined): void => {
      if (!ns) return;
      const orig = ns.setBadgeText.bind(ns);
      ns.setBadgeText = async (details) => {
        await orig(details);
        probe.badges.push({ tabId: details.tabId ?? -1, text: details.text ?? '', t: performance.now() });
      };
    };
    wrap(g.chrome.action);
    if (g.browser?.action && g.browser.action !== (g.chrome.action as unknown)) wrap(g.browser.action);
    g.chrome.webNavigation.onCommitted.addListener((d) => {
      if (d.frameId === 0) probe.commits.push({ tabId: d.tabId, url: d.url, t: performance.now() });
    });
    g.chrome.webNavigation.onCompleted.addListener((d) => {
      if (d.frameId === 0) probe.loads.push({ tabId: d.tabId, url: d.url, t: performance.now() });
    });
  });
}

export async function readProbe(sw: Worker): Promise<Probe> {
  return sw.evaluate(() => {
    const p = (globalThis as unknown as { __skillpinBenchProbe: Probe }).__skillpinBenchProbe;
    const out = { badges: [...p.badges], commits: [...p.commits], loads: [...p.loads], fetches: [...p.fetches], txs: [...p.txs], rules: [...p.rules] };
    p.badges.length = 0;
    p.commits.length = 0;
    p.loads.length = 0;
    p.fetches.length = 0;
    p.txs.length = 0;
    p.rules.length = 0;
    return out;
  });
}

/** Probe start (the page's load event) → first badge for the same tab at or after it with the expected text. */
export function verdictTime(p: Probe, url: string, expectedText: string, from: 'load' | 'commit' = 'load'): number | null {
  return verdictSpan(p, url, expectedText, from)?.ms ?? null;
}

export interface VerdictSpan {
  /** Load event → badge. */
  ms: number;
  commit: number;
  /** The page's load event: the probe's start. */
  start: number;
  badge: number;
}

/**
 * From the load event by default (where a first visit's probe starts). `from: 'commit'` counts
 * from the commit instead: a revisit's badge comes from the stored report as the page commits,
 * before its load event.
 */
export function verdictSpan(p: Probe, url: string, expectedText: string, from: 'load' | 'commit' = 'load'): VerdictSpan | null {
  const commit = p.commits.find((c) => c.url === url || c.url === url + '/');
  if (!commit) return null;
  const load = from === 'load' ? p.loads.find((l) => l.tabId === commit.tabId && l.t >= commit.t) : commit;
  if (!load) return null;
  const badge = p.badges.find((b) => b.tabId === commit.tabId && b.t >= load.t && b.text === expectedText);
  return badge ? { ms: badge.t - load.t, commit: commit.t, start: load.t, badge: badge.t } : null;
}

export interface Breakdown {
  /** Probe start (load event) → the first request of the probe. */
  beforeFirstRequest: number;
  /** First request sent → last response received. */
  requests: number;
  /** Last response → badge set. */
  afterLastResponse: number;
  readwriteTx: number;
  readonlyTx: number;
  /** Sum of readwrite transaction lifetimes (they overlap: not additive with the phases). */
  readwriteMs: number;
  /** Session-rule updates (permits) from the probe's start to its badge, and their summed time. */
  ruleUpdates: number;
  ruleMs: number;
  /** Of that time, what passed before the first request. */
  ruleMsBeforeFirst: number;
  /** The time rule updates ran while none of the probe's requests was in flight (what the probe waited for them, at most). */
  ruleMsAlone: number;
}

/** The length of [start, end] not covered by any of `cover` (intervals). */
function uncovered(start: number, end: number, cover: readonly { start: number; end: number }[]): number {
  const parts = cover
    .filter((c) => c.end > start && c.start < end)
    .map((c) => [Math.max(c.start, start), Math.min(c.end, end)] as const)
    .sort((a, b) => a[0] - b[0]);
  let free = 0;
  let at = start;
  for (const [a, b] of parts) {
    if (a > at) free += a - at;
    at = Math.max(at, b);
  }
  return free + Math.max(0, end - at);
}

/**
 * The end of the probe's write: the first readwrite transaction over the reports store that
 * started after the probe did (its one commit), or null while it has not ended.
 */
export function reportWritten(p: Probe, span: VerdictSpan): number | null {
  const tx = p.txs.find((t) => t.mode === 'readwrite' && t.start >= span.start && t.stores.includes('reports'));
  return tx ? tx.end : null;
}

/** Where the time between commit and badge went, for the origin's requests; transactions are counted until `until` (the badge, or the end of the write when it comes later). */
export function breakdown(p: Probe, span: VerdictSpan, origin: string, until: number = span.badge): Breakdown | null {
  const mine = p.fetches.filter((f) => f.url.startsWith(origin) && f.start >= span.commit && f.end <= span.badge);
  const txs = p.txs.filter((t) => t.start >= span.start && t.end <= Math.max(until, span.badge));
  if (mine.length === 0) return null;
  const first = Math.min(...mine.map((f) => f.start));
  const last = Math.max(...mine.map((f) => f.end));
  const rw = txs.filter((t) => t.mode === 'readwrite');
  const rules = (p.rules ?? []).filter((r) => r.start >= span.start && r.end <= span.badge);
  return {
    beforeFirstRequest: first - span.start,
    requests: last - first,
    afterLastResponse: span.badge - last,
    readwriteTx: rw.length,
    readonlyTx: txs.length - rw.length,
    readwriteMs: rw.reduce((a, t) => a + (t.end - t.start), 0),
    ruleUpdates: rules.length,
    ruleMs: rules.reduce((a, r) => a + (r.end - r.start), 0),
    ruleMsBeforeFirst: rules.filter((r) => r.end <= first).reduce((a, r) => a + (r.end - r.start), 0),
    ruleMsAlone: uncovered(span.start, span.badge, mine.length > 0 ? mine : []) - uncovered(span.start, span.badge, [...mine, ...rules]),
  };
}
