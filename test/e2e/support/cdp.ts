// DevTools-protocol helpers for fault tests: stop the extension's service worker the way
// chrome://serviceworker-internals does, wait for it to come back, and read its heap.
// Everything goes through a CDP session on an extension page (persistent contexts have no
// browser-level session in Playwright).
import type { BrowserContext, CDPSession, Page, Worker } from '@playwright/test';
import { workerReady } from './extension';

export interface WorkerControl {
  /** Stops every service worker of the profile and resolves once the extension's is `stopped`. */
  stop(): Promise<void>;
  /** How often the worker was seen stopped, and started again, since the control was made. */
  counts(): { stopped: number; started: number };
  /** Resolves once the worker is running again (after an event woke it). */
  running(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function workerControl(context: BrowserContext, page: Page): Promise<WorkerControl> {
  const cdp = await context.newCDPSession(page);
  let status = 'unknown';
  let stopped = 0;
  let started = 0;
  cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
    const v = e.versions.find((x) => x.scriptURL.startsWith('chrome-extension://'));
    if (!v) return;
    if (v.runningStatus === 'stopped' && status !== 'stopped') stopped += 1;
    if (v.runningStatus === 'running' && status !== 'running' && status !== 'unknown') started += 1;
    status = v.runningStatus;
  });
  await cdp.send('ServiceWorker.enable');
  await until(() => status !== 'unknown', 5_000, 'the service worker status');
  return {
    async stop() {
      const before = stopped;
      await cdp.send('ServiceWorker.stopAllWorkers');
      // Seen stopped: an event may start it again at once (a new worker), before this looks again.
      await until(() => stopped > before, 10_000, 'the service worker to stop');
    },
    counts: () => ({ stopped, started }),
    running: (timeoutMs = 10_000) => until(() => status === 'running', timeoutMs, 'the service worker to run'),
    close: () => cdp.detach().catch(() => undefined),
  };
}

/** The extension's service worker as it runs now, once its listeners are registered. */
export async function currentWorker(context: BrowserContext, timeoutMs = 15_000): Promise<Worker> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const workers = context.serviceWorkers().filter((w) => w.url().startsWith('chrome-extension://'));
    const sw = workers[workers.length - 1];
    if (sw) {
      const ok = await Promise.race([
        workerReady(sw, 2_000).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((r) => setTimeout(() => r(false), 2_500)),
      ]);
      if (ok) return sw;
    }
    if (Date.now() > deadline) throw new Error('no ready extension service worker');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runtime.getHeapUsage of the extension's service worker after a full garbage collection. */
export async function workerHeapUsed(context: BrowserContext, page: Page): Promise<number> {
  const cdp: CDPSession = await context.newCDPSession(page);
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
    if (!target) throw new Error('no service worker target');
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    const pending = new Map<number, (result: unknown) => void>();
    cdp.on('Target.receivedMessageFromTarget', (e) => {
      if (e.sessionId !== sessionId) return;
      const msg = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
      if (typeof msg.id === 'number') pending.get(msg.id)?.(msg.error ? new Error(msg.error.message) : msg.result);
    });
    let nextId = 1;
    const call = async (method: string): Promise<unknown> => {
      const id = nextId++;
      const answer = new Promise<unknown>((resolve) => pending.set(id, resolve));
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
      const result = await answer;
      if (result instanceof Error) throw result;
      return result;
    };
    await call('HeapProfiler.enable');
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const usage = (await call('Runtime.getHeapUsage')) as { usedSize: number };
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    return usage.usedSize;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
