// The extension service worker's V8 heap through the debugging protocol: a page session
// attaches to the worker target and relays Runtime/HeapProfiler commands to it.
import type { BrowserContext, CDPSession } from '@playwright/test';

export interface WorkerHeap {
  usedSize: number;
  totalSize: number;
}

export interface WorkerDebugger {
  targetId: string;
  /** Any protocol command, sent to the worker target. */
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  heap(): Promise<WorkerHeap>;
  collectGarbage(): Promise<void>;
  close(): Promise<void>;
}

export async function attachToWorker(context: BrowserContext): Promise<WorkerDebugger> {
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  const { targetInfos } = await cdp.send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
  if (!target) throw new Error('no extension service worker target');
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId?: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
    const p = m.id !== undefined ? pending.get(m.id) : undefined;
    if (!p || m.id === undefined) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  return {
    targetId: target.targetId,
    send,
    heap: async () => {
      const r = (await send('Runtime.getHeapUsage')) as WorkerHeap;
      return { usedSize: r.usedSize, totalSize: r.totalSize };
    },
    collectGarbage: async () => {
      await send('HeapProfiler.collectGarbage');
    },
    close: async () => {
      await cdp.detach().catch(() => undefined);
      await page.close();
    },
  };
}
