// The native port a page of ours carries for a background that has no connectNative
// (lib/desktop/relay.ts): the worker's Carrier and the page's carryNative joined by a pair of runtime
// ports that copy every message through JSON and deliver it later, as the browser does, with the real
// host's answers behind the page (FakeNative). The whole mirror run goes through it as through a port
// of the worker's own; the browser's reason for a closed port, and the page going, reach the worker.
import { afterEach, describe, expect, it } from 'vitest';
import { DesktopLink, type LinkState, type NativePort } from '../../../lib/desktop/link';
import { planMirror } from '../../../lib/desktop/outbox';
import { Carrier, carryNative, type RuntimePortLike } from '../../../lib/desktop/relay';
import { FakeNative } from '../background/fake-native';
import { SAMPLE_SKILLS, skillFromFolder } from '../../support/desktop';
import { join } from 'node:path';

interface End extends RuntimePortLike {
  posted: unknown[];
}

/** Two ends of a runtime port: what one posts the other receives (a JSON copy, in a later task). */
function pair(): [End, End] {
  const make = (): End & { deliver(m: unknown): void; gone(): void; other?: End & { deliver(m: unknown): void; gone(): void } } => {
    const messages: ((m: unknown) => void)[] = [];
    const disconnects: (() => void)[] = [];
    let open = true;
    const end = {
      posted: [] as unknown[],
      postMessage(m: unknown) {
        if (!open) throw new Error('Attempting to use a disconnected port object');
        end.posted.push(m);
        const copy = JSON.parse(JSON.stringify(m));
        setTimeout(() => end.other?.deliver(copy), 0);
      },
      disconnect() {
        if (!open) return;
        open = false;
        setTimeout(() => end.other?.gone(), 0);
      },
      onMessage: { addListener: (l: (m: unknown) => void) => void messages.push(l) },
      onDisconnect: { addListener: (l: () => void) => void disconnects.push(l) },
      deliver(m: unknown) {
        if (open) for (const l of messages) l(m);
      },
      gone() {
        if (!open) return;
        open = false;
        for (const l of disconnects) l();
      },
      other: undefined as (End & { deliver(m: unknown): void; gone(): void }) | undefined,
    };
    return end;
  };
  const a = make();
  const b = make();
  a.other = b;
  b.other = a;
  return [a, b];
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

let native: FakeNative;
afterEach(() => native?.close());

/** A worker-side carrier over a page that carries FakeNative's ports. */
async function carried(): Promise<{ carrier: Carrier; page: End; worker: End; ready: () => number }> {
  native = new FakeNative();
  const [worker, page] = pair();
  let readies = 0;
  const carrier = new Carrier(page, 'the settings page closed', () => readies++);
  carryNative(worker, { connectNative: () => native.connectNative(), disconnectReason: (p) => native.disconnectReason(p) });
  await tick();
  return { carrier, page, worker, ready: () => readies };
}

describe('a native port carried by a page', () => {
  it('the page says it is ready and is told it was taken; a whole mirror run goes through it to the real host', async () => {
    const { carrier, worker, ready } = await carried();
    expect(carrier.ready).toBe(true);
    expect(ready()).toBe(1);
    await tick();
    expect(worker.posted).toContainEqual({ kind: 'ready' });
    const states: LinkState[] = [];
    const link = new DesktopLink({
      connectNative: (name) => carrier.open(name),
      disconnectReason: (p) => (p as NativePort & { reason: string | null }).reason,
      timers: native.timers,
      onState: (s) => states.push(s),
    });
    const skill = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'), { confirmed: true });
    const plan = await planMirror([skill], { agents: ['claude-code'], confirmed: () => true });
    link.mirror(async () => plan);
    await expect.poll(() => states.at(-1)?.kind, { timeout: 5000 }).toBe('in-sync');
    expect([...native.mirrored().keys()]).toEqual([skill.url]);
    expect(native.agentCopy('.claude/skills', 'code-review')).not.toBeNull();
    link.stop();
  });

  it("the browser's reason for a closed port reaches the worker: a program not installed is host-absent", async () => {
    const { carrier } = await carried();
    native.installed = false;
    const port = carrier.open('dev.skillpin.mirror');
    const closed: (string | null)[] = [];
    port.onDisconnect.addListener((p) => closed.push((p as NativePort & { reason: string | null }).reason));
    port.postMessage({ type: 'hello', id: 1, protocol: 1 });
    await expect.poll(() => closed).toEqual(['Specified native messaging host not found.']);
    expect(() => port.postMessage({ type: 'status', id: 2 })).toThrow(/disconnected/);
  });

  it('the page going closes every carried port with its own reason, and nothing opens through it after', async () => {
    // `worker` is the end the page holds (the worker's side of it is `page`).
    const { carrier, worker } = await carried();
    const port = carrier.open('dev.skillpin.mirror');
    const closed: (string | null)[] = [];
    port.onDisconnect.addListener((p) => closed.push((p as NativePort & { reason: string | null }).reason));
    worker.disconnect();
    await expect.poll(() => closed).toEqual(['the settings page closed']);
    expect(carrier.gone).toBe(true);
    expect(() => carrier.open('dev.skillpin.mirror')).toThrow('the settings page closed');
  });

  it('a message for another connection number, or of no known kind, is ignored on both sides', async () => {
    const { carrier, page, worker } = await carried();
    const port = carrier.open('dev.skillpin.mirror');
    const got: unknown[] = [];
    port.onMessage.addListener((m) => got.push(m));
    // The page side: a message for a connection it never opened goes nowhere.
    page.postMessage({ kind: 'message', n: 99, body: { type: 'hello', id: 1, protocol: 1 } });
    page.postMessage({ kind: 'bogus', n: 1 });
    // The worker side: a reply for another connection is not this port's.
    worker.postMessage({ kind: 'message', n: 99, body: { type: 'hello' } });
    await tick(50);
    expect(got).toEqual([]);
    expect(native.sent).toEqual([]);
    port.postMessage({ type: 'hello', id: 1, protocol: 1 });
    await expect.poll(() => got.length).toBe(1);
    expect(got[0]).toMatchObject({ type: 'hello', id: 1 });
  });

  it('opening again replaces the connection before it on the page', async () => {
    const { carrier } = await carried();
    const first = carrier.open('dev.skillpin.mirror');
    const second = carrier.open('dev.skillpin.mirror');
    const got: unknown[] = [];
    second.onMessage.addListener((m) => got.push(m));
    await tick();
    expect(native.connects).toBe(2);
    second.postMessage({ type: 'hello', id: 1, protocol: 1 });
    await expect.poll(() => got.length).toBe(1);
    expect(() => first.disconnect()).not.toThrow();
  });
});
