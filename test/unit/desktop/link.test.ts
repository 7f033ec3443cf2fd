// The connection manager with a fake port and fake timers: the exchange, the host-absent and
// forbidden states, and the backoff after a lost connection.
import { describe, expect, it } from 'vitest';
import { compareVersions, MIN_HOST_VERSION } from '../../../lib/desktop/protocol/limits';
import { classifyDisconnect, DesktopLink, type LinkState, type NativePort, retryDelay } from '../../../lib/desktop/link';
import { planMirror } from '../../../lib/desktop/outbox';
import { parseHostRequest } from '../../../lib/desktop/protocol/wire';
import { choices, skillMd, textSkill } from '../../support/desktop';

class FakeTimers {
  now = 0;
  private queue: { at: number; fn: () => void; id: number }[] = [];
  private n = 0;
  set = (fn: () => void, ms: number): unknown => {
    const id = ++this.n;
    this.queue.push({ at: this.now + ms, fn, id });
    return id;
  };
  clear = (handle: unknown): void => {
    this.queue = this.queue.filter((q) => q.id !== handle);
  };
  /** Runs every timer due within `ms`. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const next = this.queue[0];
      if (next === undefined || next.at > until) break;
      this.queue.shift();
      this.now = next.at;
      next.fn();
    }
    this.now = until;
  }
  get pending(): number[] {
    return this.queue.map((q) => q.at - this.now);
  }
}

type Answer = (message: Record<string, unknown>) => Record<string, unknown> | null;

function fakeBrowser(answer: Answer | 'absent') {
  const sent: Record<string, unknown>[] = [];
  let connects = 0;
  const connectNative = (): NativePort => {
    connects++;
    const onMessage: ((m: unknown) => void)[] = [];
    const onDisconnect: ((p: NativePort) => void)[] = [];
    const port: NativePort & { reason: string | null } = {
      reason: null,
      postMessage: (m) => {
        sent.push(m as Record<string, unknown>);
        const reply = answer === 'absent' ? null : answer(m as Record<string, unknown>);
        queueMicrotask(() => {
          if (reply === null) {
            port.reason = answer === 'absent' ? 'Specified native messaging host not found.' : 'Native host has exited.';
            for (const l of onDisconnect) l(port);
          } else for (const l of onMessage) l(reply);
        });
      },
      disconnect: () => undefined,
      onMessage: { addListener: (l) => onMessage.push(l) },
      onDisconnect: { addListener: (l) => onDisconnect.push(l) },
    };
    return port;
  };
  return { sent, connectNative, connects: () => connects };
}

const host: Answer = (m) => {
  if (m.type === 'hello') return { type: 'hello', id: m.id, protocol: 1, version: '1.1.0', held: 0, agents: [] };
  if (m.type === 'sync') return { type: 'synced', id: m.id, missing: (m.skills as { origin: string; url: string }[]).map((s) => ({ origin: s.origin, url: s.url })), removed: [], agents: [] };
  if (m.type === 'put') {
    const s = m.skill as { origin: string; url: string };
    return { type: 'stored', id: m.id, skill: { origin: s.origin, url: s.url }, agents: [] };
  }
  return null;
};

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};

describe('DesktopLink', () => {
  const plan = () => planMirror([textSkill('alpha', skillMd('alpha', 'A'))], choices([]));

  it('greets, syncs, puts what the host lacks, and closes when idle', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser(host);
    const states: LinkState['kind'][] = [];
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: (p) => (p as unknown as { reason: string | null }).reason, timers, onState: (s) => states.push(s.kind) });
    link.mirror(plan);
    await settle();
    expect(browser.sent.map((m) => m.type)).toEqual(['hello', 'sync', 'put']);
    expect(link.state).toMatchObject({ kind: 'in-sync', version: '1.1.0', found: null, summary: { stored: [{ url: 'https://skills.example/skills/alpha/SKILL.md' }], held: 1 } });
    expect(states).toEqual(['working', 'in-sync']);
    expect(timers.pending).toEqual([30_000]);
    // A new plan reuses the open connection: no second hello.
    link.mirror(plan);
    await settle();
    expect(browser.sent.map((m) => m.type)).toEqual(['hello', 'sync', 'put', 'sync', 'put']);
    expect(browser.connects()).toBe(1);
  });

  it('counts what the host holds: a skill the plan refused or the host did not store is not held', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser((m) => (m.type === 'put' ? { type: 'error', id: m.id, code: 'digest-mismatch', message: 'no' } : host(m)));
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: () => null, timers });
    const bad = textSkill('bad', skillMd('bad', 'x'));
    bad.files.push({ path: '../escape', bytes: new Uint8Array(1) });
    link.mirror(() => planMirror([bad, textSkill('alpha', skillMd('alpha', 'A')), textSkill('beta', skillMd('beta', 'B'))], choices([])));
    await settle();
    // alpha and beta were planned; the host refused both puts; bad was refused before sending.
    expect(link.state).toMatchObject({ kind: 'in-sync', summary: { held: 0, refused: [{ ref: { url: bad.url } }, { message: 'no' }, { message: 'no' }] } });
  });

  it('an absent host is a state, not retried by itself', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser('absent');
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: (p) => (p as unknown as { reason: string | null }).reason, timers });
    link.mirror(plan);
    await settle();
    expect(link.state).toMatchObject({ kind: 'host-absent' });
    expect(timers.pending).toEqual([]);
  });

  it('a lost connection is tried again after 1 s, 2 s, 4 s …, and recovers', async () => {
    const timers = new FakeTimers();
    let crash = 2;
    const browser = fakeBrowser((m) => (m.type === 'sync' && crash-- > 0 ? null : host(m)));
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: (p) => (p as unknown as { reason: string | null }).reason, timers });
    link.mirror(plan);
    await settle();
    expect(link.state).toMatchObject({ kind: 'retrying', attempt: 1, inMs: 1000 });
    timers.advance(1000);
    await settle();
    expect(link.state).toMatchObject({ kind: 'retrying', attempt: 2, inMs: 2000 });
    timers.advance(2000);
    await settle();
    expect(link.state.kind).toBe('in-sync');
    expect(browser.connects()).toBe(3);
    expect([1, 2, 3, 20].map(retryDelay)).toEqual([1000, 2000, 4000, 300_000]);
  });

  it('a host that refuses the caller is forbidden; stop() ends everything', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser(() => ({ type: 'error', id: null, code: 'caller-not-allowed', message: 'not for you' }));
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: () => null, timers });
    link.mirror(plan);
    await settle();
    expect(link.state).toMatchObject({ kind: 'forbidden' });
    let offs = 0;
    const again = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: () => null, timers, onState: (s) => s.kind === 'off' && (offs++, again.stop()) });
    again.mirror(plan);
    again.stop();
    // stop() from inside the state callback does not call it again.
    expect(offs).toBe(1);
    link.stop();
    expect(link.state).toEqual({ kind: 'off' });
    expect(classifyDisconnect('No such native application dev.skillpin.mirror')).toBe('host-absent');
    expect(classifyDisconnect('Access to the specified native messaging host is forbidden.')).toBe('forbidden');
    expect(classifyDisconnect(null)).toBe('lost');
  });

  it('refuses a program older than the last security fix, sends it nothing more, and says which version it is', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser((m) => (m.type === 'hello' ? { ...(host(m) as Record<string, unknown>), version: '1.0.0' } : host(m)));
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: () => null, timers });
    link.mirror(plan);
    await settle();
    expect(browser.sent.map((m) => m.type)).toEqual(['hello']);
    expect(link.state).toMatchObject({ kind: 'outdated', version: '1.0.0', message: expect.stringContaining(MIN_HOST_VERSION) });
    expect(timers.pending).toEqual([]);
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.1', '1.1.0')).toBe(0);
  });

  it('every message carries this browser profile’s id', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser(host);
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: () => null, timers, profile: async () => 'f'.repeat(32) });
    link.mirror(plan);
    await settle();
    expect(browser.sent.map((m) => [m.type, m.profile])).toEqual([
      ['hello', 'f'.repeat(32)],
      ['sync', 'f'.repeat(32)],
      ['put', 'f'.repeat(32)],
    ]);
    for (const m of browser.sent) expect(parseHostRequest(m)).toMatchObject({ ok: true, value: { profile: 'f'.repeat(32) } });
  });

  it('a program whose installation is gone is the host-absent state, not retried by itself', async () => {
    const timers = new FakeTimers();
    const browser = fakeBrowser((m) => (m.type === 'sync' ? { type: 'error', id: m.id, code: 'not-installed', message: 'uninstalled' } : host(m)));
    const link = new DesktopLink({ connectNative: browser.connectNative, disconnectReason: () => null, timers });
    link.mirror(plan);
    await settle();
    expect(link.state).toMatchObject({ kind: 'host-absent', message: 'uninstalled' });
    expect(timers.pending).toEqual([]);
  });
});
