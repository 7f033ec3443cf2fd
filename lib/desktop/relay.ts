// A native connection carried by an extension page. Chromium binds runtime.connectNative only in
// a context created after the user granted nativeMessaging: the service worker that was running at
// the grant never gets it, a worker started later does, and so does a page loaded later. So when the
// user turns desktop agents on, the options page loads a small page of ours (native-relay.html) that
// opens the native port for the worker and passes messages both ways over a runtime port, until the
// worker starts again with its own. Nothing restarts or reloads the extension.
//
// The worker accepts a carrier only from the extension's own pages (entrypoints/background/native.ts);
// the carrier passes bytes and takes no decision: what is sent is planned in the worker as before.
import type { LinkDeps, NativePort } from './link';

/** The runtime port's name. */
export const RELAY_PORT = 'skillpin:native-relay';

/** What the carrier page posts to the page around it once the worker took it as its carrier. */
export const RELAY_READY = 'skillpin:native-relay-ready';

/** The worker's words to the carrier. `n` numbers the native connections; `accepted`: it is the worker's carrier now. */
export type ToCarrier = { kind: 'accepted' } | { kind: 'open'; n: number; name: string } | { kind: 'message'; n: number; body: unknown } | { kind: 'close'; n: number };

/** The carrier's words to the worker. `ready`: it can open native ports. */
export type ToWorker = { kind: 'ready' } | { kind: 'message'; n: number; body: unknown } | { kind: 'closed'; n: number; reason: string | null };

/** The part of a runtime.Port both sides use. */
export interface RuntimePortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A native port as the worker sees it, carried by a page: `reason` is why it closed, as the browser said it there. */
export interface CarriedPort extends NativePort {
  readonly reason: string | null;
}

/**
 * The worker's side of one carrier page: `open(name)` opens native port `name` through it. A port
 * closes when the carrier says it closed (with the browser's reason) or when the carrier goes (with
 * `goneReason`).
 */
export class Carrier {
  private next = 1;
  private readonly ports = new Map<number, { messages: ((m: unknown) => void)[]; closed: (reason: string | null) => void }>();
  /** The carrier said it can open native ports. */
  ready = false;
  gone = false;

  constructor(
    private readonly page: RuntimePortLike,
    private readonly goneReason: string,
    onReady: () => void,
  ) {
    page.onMessage.addListener((raw) => {
      if (!isRecord(raw)) return;
      if (raw.kind === 'ready') {
        this.ready = true;
        page.postMessage({ kind: 'accepted' } satisfies ToCarrier);
        onReady();
        return;
      }
      const entry = typeof raw.n === 'number' ? this.ports.get(raw.n) : undefined;
      if (entry === undefined) return;
      if (raw.kind === 'message') for (const l of entry.messages) l(raw.body);
      else if (raw.kind === 'closed') entry.closed(typeof raw.reason === 'string' ? raw.reason : null);
    });
    page.onDisconnect.addListener(() => {
      this.gone = true;
      for (const entry of [...this.ports.values()]) entry.closed(this.goneReason);
    });
  }

  open(name: string): CarriedPort {
    if (this.gone) throw new Error(this.goneReason);
    const n = this.next++;
    const messages: ((m: unknown) => void)[] = [];
    const disconnects: ((port: NativePort) => void)[] = [];
    const send = (m: ToCarrier): void => this.page.postMessage(m);
    const port: CarriedPort & { reason: string | null } = {
      reason: null,
      postMessage: (body) => {
        if (!this.ports.has(n)) throw new Error('Attempting to use a disconnected port object');
        send({ kind: 'message', n, body });
      },
      disconnect: () => {
        if (!this.ports.delete(n)) return;
        try {
          send({ kind: 'close', n });
        } catch {
          // The carrier is gone already: nothing to close there.
        }
      },
      onMessage: { addListener: (l) => void messages.push(l) },
      onDisconnect: { addListener: (l) => void disconnects.push(l) },
    };
    const closed = (reason: string | null): void => {
      if (!this.ports.delete(n)) return;
      port.reason = reason;
      for (const l of disconnects) l(port);
    };
    this.ports.set(n, { messages, closed });
    send({ kind: 'open', n, name });
    return port;
  }
}

/** What the page needs of its browser: the link's own ways to open a native port and to read why one closed. */
export type CarrierDeps = Pick<LinkDeps, 'connectNative' | 'disconnectReason'>;

/**
 * The page's side: opens the native ports the worker asks for and passes their messages both ways.
 * A port the worker opens again replaces the one before; the worker going closes them all.
 */
export function carryNative(worker: RuntimePortLike, deps: CarrierDeps): void {
  const ports = new Map<number, NativePort>();
  const say = (m: ToWorker): void => {
    try {
      worker.postMessage(m);
    } catch {
      // The worker's side is gone; its onDisconnect closes the ports.
    }
  };
  worker.onMessage.addListener((raw) => {
    if (!isRecord(raw) || typeof raw.n !== 'number') return;
    const n = raw.n;
    if (raw.kind === 'open' && typeof raw.name === 'string') {
      for (const [m, old] of ports) ports.delete(m), old.disconnect();
      let native: NativePort;
      try {
        native = deps.connectNative(raw.name);
      } catch (error) {
        say({ kind: 'closed', n, reason: error instanceof Error ? error.message : String(error) });
        return;
      }
      ports.set(n, native);
      native.onMessage.addListener((body) => say({ kind: 'message', n, body }));
      native.onDisconnect.addListener((p) => {
        if (ports.get(n) !== native) return;
        ports.delete(n);
        say({ kind: 'closed', n, reason: deps.disconnectReason(p) });
      });
    } else if (raw.kind === 'message') ports.get(n)?.postMessage(raw.body);
    else if (raw.kind === 'close') {
      const native = ports.get(n);
      ports.delete(n);
      native?.disconnect();
    }
  });
  worker.onDisconnect.addListener(() => {
    for (const native of ports.values()) native.disconnect();
    ports.clear();
  });
  say({ kind: 'ready' });
}
