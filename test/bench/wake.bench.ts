// 1b. The wake of the worker: every page's load event is an event the background listens to, so a
// stopped worker starts for it, after the page has loaded (nothing before: the page-load bench
// counts the starts on each side of the load event). Measured in real Chromium: the start itself (the browser's
// StartWorkerRequested → StartWorkerFinished, which Chromium marks once the worker's top-level
// script has run, i.e. its listeners are registered) after the worker was stopped, and the
// worker's CPU time while a page loads (a sampling profile of the worker target from the
// navigation's start to the page's load event, idle samples left out).
import { test } from '@playwright/test';
import type { CDPSession, Page } from '@playwright/test';
import { launchBench } from './support/browser';
import { startBenchSite, type BenchSite } from './support/servers';
import { fmt, summarize } from './support/stats';
import { reproCommand, writeSection, type TargetCheck } from './support/results';
import { attachToWorker, type WorkerDebugger } from './support/worker-cdp';

const WAKES = Number(process.env.BENCH_WAKES ?? 10);
const LOADS = Number(process.env.BENCH_WAKE_LOADS ?? 20);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  pid: number;
  tid: number;
}

/** One cold wake: the worker stopped, then a page load on a fresh origin; returns the browser's start span in ms. */
async function coldWake(cdp: CDPSession, page: Page, url: string): Promise<number | null> {
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.waitForTimeout(300);
  const events: TraceEvent[] = [];
  const onData = (e: { value: unknown[] }): void => void events.push(...(e.value as unknown as TraceEvent[]));
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['ServiceWorker'] }, transferMode: 'ReportEvents' } as never);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(500);
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', onData);
  const requested = events.find((e) => e.name === 'ServiceWorkerVersion::StartWorkerRequested');
  const finished = events.find((e) => e.name === 'ServiceWorkerVersion::StartWorkerFinished' && requested && e.ts >= requested.ts);
  return requested && finished ? (finished.ts - requested.ts) / 1000 : null;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

/** The worker's CPU time (ms) in a sampling profile: every sample that is not idle. */
function cpuMs(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): { total: number; byUrl: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  let total = 0;
  const byUrl = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const n = nodes.get(id);
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!n || n.callFrame.functionName === '(idle)') return;
    total += dt;
    const key = n.callFrame.url ? n.callFrame.functionName || '(anonymous)' : n.callFrame.functionName;
    byUrl.set(key, (byUrl.get(key) ?? 0) + dt);
  });
  return { total, byUrl };
}

/** The worker's CPU time from the navigation's start to the page's load event (a warm worker). */
async function cpuDuringLoad(dbg: WorkerDebugger, page: Page, url: string): Promise<{ total: number; byUrl: Map<string, number> }> {
  await dbg.send('Profiler.start');
  await page.goto(url, { waitUntil: 'load' });
  const { profile } = (await dbg.send('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  return cpuMs(profile);
}

test('the wake of the worker', async () => {
  test.setTimeout(600_000);
  const started = Date.now();
  const b = await launchBench(true);
  const sites: BenchSite[] = [];
  const rows: (string | number)[][] = [];
  const targets: TargetCheck[] = [];
  const raw: Record<string, unknown> = {};
  try {
    for (const n of [0, 5]) sites.push(await startBenchSite(n));
    const page = await b.context.newPage();
    await page.goto(sites[0]?.freshOrigin('warm') + '/');
    const cdp = await b.context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    const wakes: number[] = [];
    for (let i = 0; i < WAKES; i++) {
      const ms = await coldWake(cdp, page, (sites[i % sites.length] as BenchSite).freshOrigin(`wake${i}`) + '/');
      if (ms !== null) wakes.push(ms);
    }
    const w = summarize(wakes);
    rows.push([
      "cold wake: the browser starts the stopped worker for a page's load event (StartWorkerRequested → StartWorkerFinished: top-level script run, listeners registered)",
      `${fmt(w.median)} ms`,
      `${fmt(w.p95)} ms`,
      `${fmt(w.p25)}–${fmt(w.p75)} ms`,
      w.n,
      reproCommand('wake.bench.ts'),
    ]);
    raw['wakes'] = wakes;

    // A warm worker: its CPU time while a page loads (none of the page's load is heard; the probe starts at the load event).
    const dbg = await attachToWorker(b.context);
    try {
      await dbg.send('Profiler.enable');
      await dbg.send('Profiler.setSamplingInterval', { interval: 100 });
      for (const s of sites) {
        const cpu: number[] = [];
        const by = new Map<string, number>();
        for (let i = 0; i < LOADS; i++) {
          const r = await cpuDuringLoad(dbg, page, s.freshOrigin(`cpu${i}`) + '/');
          cpu.push(r.total);
          for (const [k, v] of r.byUrl) by.set(k, (by.get(k) ?? 0) + v / LOADS);
          // Let the probe of this page finish before the next load is measured.
          await page.waitForTimeout(s.skills > 0 ? 600 : 300);
        }
        const c = summarize(cpu);
        const top = [...by.entries()]
          .sort((x, y) => y[1] - x[1])
          .slice(0, 4)
          .map(([k, v]) => `${k} ${fmt(v, 2)} ms`)
          .join(', ');
        const label = s.skills === 0 ? 'publishes nothing' : `${s.skills} signed skills`;
        rows.push([
          `warm worker, ${label}: worker CPU time from navigation start to the page's load event (sampling profile, idle left out; mean per load: ${top})`,
          `${fmt(c.median, 2)} ms`,
          `${fmt(c.p95, 2)} ms`,
          `${fmt(c.p25, 2)}–${fmt(c.p75, 2)} ms`,
          c.n,
          reproCommand('wake.bench.ts'),
        ]);
        raw[`cpu-${s.skills}`] = cpu;
      }
    } finally {
      await dbg.close();
    }
    targets.push({ what: 'a bench row for the wake of the worker (cold start and CPU during a page load)', target: 'measured', measured: `cold wake median ${fmt(w.median)} ms`, met: w.n > 0 });
  } finally {
    await Promise.all(sites.map((s) => s.close()));
    await b.close();
  }
  writeSection({
    id: '1b-wake',
    title: '1b. The wake of the worker (Chromium)',
    columns: ['what', 'median', 'p95', 'IQR', 'n', 'reproduce'],
    rows,
    targets,
    notes: [
      'Cold wake: the worker is stopped through the debugging protocol (ServiceWorker.stopAllWorkers), then a page on a fresh origin is loaded; the span is read from the browser process trace (category ServiceWorker).',
      'CPU: a sampling profile (100 µs) of the worker target from before page.goto to the load event; samples that are (idle) are left out, (program) and (garbage collector) count.',
    ],
    raw,
    seconds: (Date.now() - started) / 1000,
  });
});
