// 7b. Service-worker heap after 1,000 navigations (V8 heap of the extension's worker, after a
// forced garbage collection, read through the debugging protocol).
import { test } from '@playwright/test';
import { launchBench } from './support/browser';
import { startBenchSite, type BenchSite } from './support/servers';
import { attachToWorker } from './support/worker-cdp';
import { fmt } from './support/stats';
import { reproCommand, writeSection, type TargetCheck } from './support/results';

const NAVIGATIONS = Number(process.env.BENCH_NAVIGATIONS ?? 1000);
const MiB = 1024 * 1024;

test('service-worker heap after 1,000 navigations', async () => {
  test.setTimeout(600_000);
  const started = Date.now();
  const b = await launchBench(true);
  const sites: BenchSite[] = [];
  const rows: (string | number)[][] = [];
  const targets: TargetCheck[] = [];
  const raw: Record<string, unknown> = {};
  try {
    sites.push(await startBenchSite(0), await startBenchSite(5));
    const [plain, pub] = sites as [BenchSite, BenchSite];
    // 200 origins: 180 that publish nothing, 20 with 5 signed skills; each visited 5 times.
    const origins: string[] = [];
    for (let i = 0; i < 200; i++) origins.push(i % 10 === 0 ? pub.freshOrigin(`m${i}`) : plain.freshOrigin(`m${i}`));
    const dbg = await attachToWorker(b.context);
    // Four real tabs navigate (webNavigation.onCompleted → the background's navigation handling and
    // badge, lib/background/page-events.ts), each waiting after a navigation until the origin has a finished
    // report, asked from an extension page as the popup does.
    const ext = await b.context.newPage();
    await ext.goto(`chrome-extension://${b.extensionId}/options.html`);
    const tabs = await Promise.all(Array.from({ length: 4 }, () => b.context.newPage()));
    const settled = async (origin: string): Promise<void> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const r = (await ext.evaluate((o) => chrome.runtime.sendMessage({ type: 'skillpin:report', origin: o }), origin)) as { state?: string } | null;
        if (r && r.state !== 'probing') return;
        if (Date.now() > deadline) throw new Error(`no finished report for ${origin}`);
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    const sample = async (label: string, navs: number): Promise<void> => {
      // Let stragglers finish, then collect garbage before reading the heap.
      await new Promise((r) => setTimeout(r, 500));
      await dbg.collectGarbage();
      await dbg.collectGarbage();
      const h = await dbg.heap();
      rows.push([label, navs, `${fmt(h.usedSize / MiB, 2)} MiB`, `${fmt(h.totalSize / MiB, 2)} MiB`, reproCommand('memory.bench.ts')]);
      raw[label] = h;
    };
    await sample('after start-up', 0);
    const checkpoints = new Set([100, 250, 500, NAVIGATIONS]);
    const t0 = Date.now();
    let done = 0;
    const sorted = [...checkpoints].sort((a, b) => a - b);
    for (const cp of sorted) {
      const urls = Array.from({ length: cp - done }, (_, k) => `${origins[(done + k) % origins.length]}/?n=${done + k}`);
      let next = 0;
      await Promise.all(
        tabs.map(async (tab) => {
          while (next < urls.length) {
            const url = urls[next++] as string;
            await tab.goto(url, { waitUntil: 'load' });
            await settled(new URL(url).origin);
          }
        }),
      );
      done = cp;
      await sample(`after ${cp} navigations`, cp);
    }
    raw['navigationSeconds'] = (Date.now() - t0) / 1000;
    const first = raw['after start-up'] as { usedSize: number };
    const last = raw[`after ${NAVIGATIONS} navigations`] as { usedSize: number };
    const mid = raw['after 500 navigations'] as { usedSize: number } | undefined;
    targets.push({
      what: `service-worker heap after ${NAVIGATIONS} navigations (200 origins)`,
      target: 'bounded: no growth between 500 and 1,000 navigations beyond noise (≤ 1 MiB)',
      measured: `${fmt(last.usedSize / MiB, 2)} MiB used (start-up ${fmt(first.usedSize / MiB, 2)} MiB${mid ? `, at 500: ${fmt(mid.usedSize / MiB, 2)} MiB` : ''})`,
      met: mid ? last.usedSize - mid.usedSize <= MiB : null,
    });
    await dbg.close();
  } finally {
    await Promise.all(sites.map((s) => s.close()));
    await b.close();
  }
  writeSection({
    id: '7b-memory',
    title: '7b. Service-worker heap (V8, after forced GC)',
    columns: ['when', 'navigations', 'heap used', 'heap reserved', 'reproduce'],
    rows,
    targets,
    notes: [
      '1,000 navigations over 200 origins on 127.0.0.1 (180 publish nothing, 20 publish 5 signed skills; each origin 5 times), made by four real tabs (the background hears them through webNavigation), each waiting after a navigation until the origin has a finished report. Before each reading the worker is left 0.5 s, then garbage is collected twice; the figure is Runtime.getHeapUsage of the worker target.',
    ],
    raw,
    seconds: (Date.now() - started) / 1000,
  });
});
