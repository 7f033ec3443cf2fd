// 1. Page-load overhead in real Chromium, as people browse: each page opened in a new tab
// (window.open, which opens a foreground tab: its creation, its activation and its navigation) and
// each page loaded in the same tab; a fresh origin each load and a revisit of one origin; a site
// that publishes nothing and one with 5 signed skills; the bench's light page and a heavier one.
// Three browsers side by side, alternating their order every load: with Skillpin, with an empty
// extension that has Skillpin's exact permissions and host access (the floor the browser sets),
// and with no extension. Then the worker's wakes: with the worker stopped before each load, the
// browser's trace counts the worker starts before and after the page's load event.
import { test } from '@playwright/test';
import type { CDPSession, Page } from '@playwright/test';
import { rmSync } from 'node:fs';
import { launchBench, type BenchBrowser } from './support/browser';
import { makeEmptyExtension } from './support/empty-extension';
import { startBenchSite, type BenchSite } from './support/servers';
import { HEAVY_PAGE } from './support/sites';
import { fmt, pairedRatio, summarize, type PairedRatio } from './support/stats';
import { reproCommand, writeSection, type TargetCheck } from './support/results';

/** Loads of each kind per browser (the rounds). */
const LOADS = Number(process.env.BENCH_LOADS ?? 40);
/** Loads of each kind with the worker stopped first, whose worker starts are counted. */
const WAKE_LOADS = Number(process.env.BENCH_WAKE_COUNT_LOADS ?? 3);
/** After each load every browser waits this long, so that Skillpin's check of the page (after its load event) does not fall in the next load. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 400);

type Side = 'skillpin' | 'empty' | 'none';
const SIDES: readonly Side[] = ['skillpin', 'empty', 'none'];

interface Variant {
  key: string;
  page: 'light' | 'heavy';
  site: BenchSite;
  tab: 'new' | 'same';
  visit: 'fresh' | 'revisit';
}

interface Runner {
  side: Side;
  browser: BenchBrowser;
  /** The page new tabs are opened from. */
  opener: Page;
  /** The tab every same-tab load goes to. */
  tab: Page;
  /** Each revisit variant's origin for this browser. */
  revisits: Map<string, string>;
}

/** The page's load event end, as an absolute time (performance.timeOrigin + loadEventEnd). */
async function loadEnd(page: Page): Promise<{ end: number; nav: number }> {
  return page.evaluate(async () => {
    for (let i = 0; i < 200; i++) {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      if (nav && nav.loadEventEnd > 0) return { end: performance.timeOrigin + nav.loadEventEnd, nav: nav.loadEventEnd - nav.startTime };
      await new Promise((r) => setTimeout(r, 5));
    }
    return { end: Number.NaN, nav: Number.NaN };
  });
}

/** One load; returns its time in ms: in the same tab, navigation start → load event end; in a new tab, window.open → the new page's load event end. */
async function load(r: Runner, tab: Variant['tab'], url: string): Promise<number> {
  if (tab === 'same') {
    await r.tab.goto(url, { waitUntil: 'load' });
    return (await loadEnd(r.tab)).nav;
  }
  const [page, opened] = await Promise.all([
    r.browser.context.waitForEvent('page'),
    r.opener.evaluate((u) => {
      const t0 = performance.timeOrigin + performance.now();
      window.open(u, '_blank', 'noopener');
      return t0;
    }, url),
  ]);
  await page.waitForLoadState('load');
  const { end } = await loadEnd(page);
  await page.close();
  return end - opened;
}

function urlFor(r: Runner, v: Variant, round: string): string {
  const path = v.page === 'heavy' ? HEAVY_PAGE : '/';
  if (v.visit === 'revisit') return `${r.revisits.get(v.key)}${path}?r=${round}`;
  return `${v.site.freshOrigin(`${r.side}-${round}`)}${path}`;
}

async function startRunner(side: Side, emptyDir: string): Promise<Runner> {
  const browser = await launchBench(side === 'skillpin' ? true : side === 'empty' ? { dir: emptyDir } : false);
  const opener = await browser.context.newPage();
  const tab = await browser.context.newPage();
  return { side, browser, opener, tab, revisits: new Map() };
}

interface TraceEvent {
  name: string;
  ts: number;
  args?: { data?: { isMainFrame?: boolean; isOutermostMainFrame?: boolean; message?: string } };
}

interface WakeCount {
  /** Worker starts (ServiceWorkerVersion::StartWorkerRequested) before / after the load event. */
  startsBefore: number;
  startsAfter: number;
  /** Events delivered to the worker (ServiceWorkerVersion::Request: an extension event, a message) before / after it. */
  eventsBefore: number;
  eventsAfter: number;
}

const BEGIN_MARK = 'skillpin-bench-load-begins';

/** The extension worker's last running status, and when it changed (ServiceWorker.workerVersionUpdated). */
interface WorkerStatus {
  last: string;
  at: number;
}

/** Stops the worker and waits until it has stayed stopped for a second (a queued event may start it again at once). */
async function stopWorker(cdp: CDPSession, page: Page, status: WorkerStatus): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if (status.last !== 'stopped') await cdp.send('ServiceWorker.stopAllWorkers');
    await page.waitForTimeout(1000);
    if (status.last === 'stopped' && Date.now() - status.at >= 1000) return;
  }
}

/**
 * One load under a trace, the worker stopped first: the worker's starts and the events it was
 * sent, from the load's beginning (a console.timeStamp in the opener, just before window.open or
 * the navigation) to the new page's main-frame MarkLoad, and after it.
 */
async function countWakes(cdp: CDPSession, r: Runner, v: Variant, round: string, status: WorkerStatus): Promise<WakeCount | null> {
  await stopWorker(cdp, r.opener, status);
  const events: TraceEvent[] = [];
  const onData = (e: { value: unknown[] }): void => void events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['ServiceWorker', 'devtools.timeline'] }, transferMode: 'ReportEvents' } as never);
  await r.opener.evaluate((mark) => console.timeStamp(mark), BEGIN_MARK);
  await load(r, v.tab, urlFor(r, v, round));
  await r.opener.waitForTimeout(700);
  const complete = new Promise((res) => cdp.once('Tracing.tracingComplete', res));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', onData);
  const begin = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === BEGIN_MARK)?.ts;
  const marks = events.filter((e) => e.name === 'MarkLoad' && (e.args?.data?.isOutermostMainFrame ?? e.args?.data?.isMainFrame) === true && begin !== undefined && e.ts > begin);
  if (begin === undefined || marks.length === 0) return null;
  const loadTs = Math.max(...marks.map((e) => e.ts));
  const at = (name: string): number[] => events.filter((e) => e.name === name && e.ts >= begin).map((e) => e.ts);
  const starts = at('ServiceWorkerVersion::StartWorkerRequested');
  const sent = at('ServiceWorkerVersion::Request');
  return {
    startsBefore: starts.filter((t) => t < loadTs).length,
    startsAfter: starts.filter((t) => t >= loadTs).length,
    eventsBefore: sent.filter((t) => t < loadTs).length,
    eventsAfter: sent.filter((t) => t >= loadTs).length,
  };
}

/** The wake pass: WAKE_LOADS loads of each kind in the Skillpin browser, each counted by countWakes. */
async function wakePass(skillpin: Runner, variants: readonly Variant[]): Promise<Map<string, WakeCount & { n: number }>> {
  const cdp = await skillpin.browser.context.newCDPSession(skillpin.opener);
  const status: WorkerStatus = { last: 'running', at: Date.now() };
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { scriptURL: string; runningStatus: string }[] }) => {
    for (const version of e.versions) {
      if (!version.scriptURL.startsWith('chrome-extension://') || version.runningStatus === status.last) continue;
      status.last = version.runningStatus;
      status.at = Date.now();
    }
  });
  await cdp.send('ServiceWorker.enable');
  const wakes = new Map<string, WakeCount & { n: number }>();
  for (const v of variants) {
    const w = { startsBefore: 0, startsAfter: 0, eventsBefore: 0, eventsAfter: 0, n: 0 };
    for (let i = 0; i < WAKE_LOADS; i++) {
      const c = await countWakes(cdp, skillpin, v, `w${i}`, status);
      if (!c) continue;
      w.startsBefore += c.startsBefore;
      w.startsAfter += c.startsAfter;
      w.eventsBefore += c.eventsBefore;
      w.eventsAfter += c.eventsAfter;
      w.n += 1;
    }
    wakes.set(v.key, w);
  }
  await cdp.detach();
  return wakes;
}

function label(v: Variant): string {
  return `${v.page} page, ${v.site.skills === 0 ? 'publishes nothing' : `${v.site.skills} signed skills`}, ${v.tab === 'new' ? 'new tab' : 'same tab'}, ${v.visit === 'fresh' ? 'fresh origin each load' : 'revisit'}`;
}

function ratioCell(p: PairedRatio): string {
  return `${fmt(p.mean, 3)} (${fmt(p.low, 3)}–${fmt(p.high, 3)})`;
}

function addedCell(p: PairedRatio): string {
  return `${fmt(p.added, 1)} ms (${fmt(p.addedLow, 1)}–${fmt(p.addedHigh, 1)})`;
}

function targetsFor(v: Variant, vsNone: PairedRatio, vsEmpty: PairedRatio, wakes: string): TargetCheck[] {
  const goal = (p: PairedRatio, max: number): boolean => p.mean <= max && p.high < 1.05;
  const why = (p: PairedRatio, max: number): string =>
    p.low <= 1
      ? `within this machine's noise: the interval ${fmt(p.low, 3)}–${fmt(p.high, 3)} contains 1.00${p.high >= 1.05 ? ' and reaches 1.05 (more loads would narrow it)' : ''}`
      : `the interval ${fmt(p.low, 3)}–${fmt(p.high, 3)} excludes 1.00 (goal ≤ ${max}); worker starts before / after the load event: ${wakes}`;
  return [
    {
      what: `page load, ${label(v)}: Skillpin ÷ no extension (geometric mean of paired ratios)`,
      target: '≤ 1.02, 95 % CI below 1.05',
      measured: `${ratioCell(vsNone)}, ${addedCell(vsNone)} added`,
      met: goal(vsNone, 1.02),
      ...(goal(vsNone, 1.02) ? {} : { why: why(vsNone, 1.02) }),
    },
    {
      what: `page load, ${label(v)}: Skillpin ÷ empty extension with the same permissions`,
      target: '≤ 1.01, 95 % CI below 1.05',
      measured: `${ratioCell(vsEmpty)}, ${addedCell(vsEmpty)} added`,
      met: goal(vsEmpty, 1.01),
      ...(goal(vsEmpty, 1.01) ? {} : { why: why(vsEmpty, 1.01) }),
    },
  ];
}

test('page-load overhead: Skillpin, an empty extension with its permissions, no extension', async () => {
  test.setTimeout(Math.max(600_000, LOADS * 60_000));
  const started = Date.now();
  const emptyDir = makeEmptyExtension();
  const runners: Runner[] = [];
  const sites: BenchSite[] = [];
  const rows: (string | number)[][] = [];
  const targets: TargetCheck[] = [];
  const raw: Record<string, unknown> = {};
  try {
    for (const side of SIDES) runners.push(await startRunner(side, emptyDir));
    for (const n of [0, 5]) sites.push(await startBenchSite(n, { heavyPage: true }));
    const variants: Variant[] = [];
    for (const page of ['light', 'heavy'] as const)
      for (const site of sites)
        for (const tab of ['new', 'same'] as const) for (const visit of ['fresh', 'revisit'] as const) variants.push({ key: `${page}/${site.skills}/${tab}/${visit}`, page, site, tab, visit });
    // Warm every browser; each revisit variant's origin is visited once (its first check done).
    for (const r of runners) {
      await r.opener.goto(`${sites[0]?.freshOrigin(`opener-${r.side}`)}/`);
      for (const v of variants) if (v.visit === 'revisit') r.revisits.set(v.key, (v.site as BenchSite).freshOrigin(`re-${r.side}`));
      for (const v of variants) {
        await load(r, v.tab, urlFor(r, v, 'warm'));
        await r.opener.waitForTimeout(SETTLE_MS);
      }
    }
    const samples = new Map<string, number[]>();
    const push = (k: string, x: number): void => void samples.set(k, [...(samples.get(k) ?? []), x]);
    for (let i = 0; i < LOADS; i++) {
      for (const [vi, v] of variants.entries()) {
        // Every order of the three browsers in turn: none of them is always first, or always after Skillpin.
        const shift = (i + vi) % 3;
        const order = [...runners.slice(shift), ...runners.slice(0, shift)];
        if ((i + vi) % 2 === 1) order.reverse();
        for (const r of order) {
          push(`${v.key}/${r.side}`, await load(r, v.tab, urlFor(r, v, `l${i}`)));
          await r.opener.waitForTimeout(SETTLE_MS);
        }
      }
    }
    raw['samples'] = Object.fromEntries(samples);

    // The worker's wakes: Skillpin's worker stopped before each load, its starts read from the trace.
    const wakes = await wakePass(runners[0] as Runner, variants);
    raw['wakes'] = Object.fromEntries(wakes);

    for (const v of variants) {
      const s = (side: Side): number[] => samples.get(`${v.key}/${side}`) ?? [];
      const vsNone = pairedRatio(s('skillpin'), s('none'));
      const vsEmpty = pairedRatio(s('skillpin'), s('empty'));
      const w = wakes.get(v.key);
      const per = (x: number): string => (w && w.n > 0 ? fmt(x / w.n, 2) : 'n/a');
      const wakeCell = w ? `starts ${per(w.startsBefore)} / ${per(w.startsAfter)}, events ${per(w.eventsBefore)} / ${per(w.eventsAfter)}` : 'n/a';
      rows.push([
        label(v),
        `${fmt(summarize(s('skillpin')).median)} ms`,
        `${fmt(summarize(s('empty')).median)} ms`,
        `${fmt(summarize(s('none')).median)} ms`,
        ratioCell(vsNone),
        addedCell(vsNone),
        ratioCell(vsEmpty),
        addedCell(vsEmpty),
        wakeCell,
        `${vsNone.n} × 3`,
        reproCommand('pageload.bench.ts'),
      ]);
      targets.push(...targetsFor(v, vsNone, vsEmpty, wakeCell));
    }
  } finally {
    await Promise.all(sites.map((s) => s.close()));
    for (const r of runners) await r.browser.close();
    rmSync(emptyDir, { recursive: true, force: true });
  }
  writeSection({
    id: '1-page-load',
    title: '1. Page-load overhead in Chromium (Skillpin ÷ no extension, Skillpin ÷ an empty extension with the same permissions)',
    columns: [
      'page, site, tab, visit',
      'Skillpin (median)',
      'empty extension',
      'no extension',
      'Skillpin ÷ none (95 % CI)',
      'ms added vs none (95 % CI)',
      'Skillpin ÷ empty (95 % CI)',
      'ms added vs empty (95 % CI)',
      'the worker per load, before / after the load event: starts, events sent to it (worker stopped first)',
      'loads',
      'reproduce',
    ],
    rows,
    targets,
    notes: [
      'Three headless Chromium instances with identical flags: one with Skillpin, one with an empty extension that has Skillpin’s exact permissions, optional permissions and host access and a service worker that does nothing (test/bench/support/empty-extension.ts: the cost any such extension has, e.g. the network hooks of webRequest and declarativeNetRequest), one with none. Each round loads every kind of page once in each browser, one after the other, the order of the three browsers changing from load to load.',
      'New tab: an already open page calls window.open(url, "_blank", "noopener") (a foreground tab: its creation, activation and navigation), and the time runs from that call to the new page’s load event end (performance.timeOrigin + loadEventEnd, both pages on the same clock); the tab is then closed. Same tab: one tab navigates again and again; Navigation Timing loadEventEnd − startTime.',
      'Fresh origin: a new `<label>.localhost:<port>` each load (all on 127.0.0.1), so Skillpin checks every one after its load event. Revisit: the same origin again (checked once before the rounds).',
      `Light page: a few hundred bytes of HTML (test/bench/support/sites.ts). Heavier page: ${HEAVY_PAGE}, 1,500 paragraphs, 4 stylesheets, 6 scripts with some milliseconds of work each, 24 images, no frames.`,
      `After each load every browser waits ${SETTLE_MS} ms, so that Skillpin's check of the page (after its load event) is not inside the next load of any browser (the two cores are shared).`,
      'Ratios: geometric mean of the paired ratios (loads of the same round), with a 95 % bootstrap interval that resamples whole rounds; ms added: median of the paired differences, same interval.',
      `Worker starts: in the Skillpin browser, ${WAKE_LOADS} more loads of each kind, each once the worker has been stopped (ServiceWorker.stopAllWorkers) and stayed stopped for a second, traced (categories ServiceWorker, devtools.timeline) from a console.timeStamp in the opener just before window.open or the navigation: ServiceWorkerVersion::StartWorkerRequested (a start) and ServiceWorkerVersion::Request (an event or message sent to the worker) before and after the new page's main-frame MarkLoad. A listener of any event before the load event (a tab's creation, a commit, an activation) would start the worker before it.`,
    ],
    raw,
    seconds: (Date.now() - started) / 1000,
  });
});
