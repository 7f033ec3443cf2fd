// Native messaging for background tests: connectNative opens a port to the real host's message
// handling (host/native-host.ts answer(), the same code the installed program runs) over a mirror
// and a home in a temporary folder, so a test reads what reached the disk. Every message is copied
// through JSON as the browser does, and every message sent is kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mirror } from '../../../host/mirror';
import { answer } from '../../../host/native-host';
import { mirrorDir, places as makePlaces, type Places } from '../../../host/places';
import type { NativePlatform } from '../../../lib/background/deps';
import type { NativePort } from '../../../lib/desktop/link';
import { tempPlaces, type TempPlaces } from '../../support/desktop';

export const FAKE_CALLER = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';

export class FakeNative implements NativePlatform {
  readonly temp: TempPlaces = tempPlaces();
  readonly places: Places = makePlaces({ home: this.temp.home, dataDir: this.temp.dataDir });
  /** The browser grants nativeMessaging. */
  permission = true;
  /** This background has connectNative (false: a Chrome worker started before the grant). */
  api = true;
  /** The program is installed: false makes every port close as Chrome's does for a missing host. */
  installed = true;
  sent: Record<string, unknown>[] = [];
  connects = 0;
  /** A page of ours carries the native port (lib/desktop/relay.ts): available without connectNative. */
  carrying = false;
  private watchers: (() => void)[] = [];
  installCommand = `skillpin install-host --chrome-id ${FAKE_CALLER.slice(19, -1)}`;
  private handles = new Set<ReturnType<typeof setTimeout>>();
  timers = {
    set: (fn: () => void, ms: number): unknown => {
      const h = setTimeout(() => {
        this.handles.delete(h);
        fn();
      }, ms);
      this.handles.add(h);
      return h;
    },
    clear: (h: unknown): void => {
      clearTimeout(h as ReturnType<typeof setTimeout>);
      this.handles.delete(h as ReturnType<typeof setTimeout>);
    },
  };

  async granted(): Promise<boolean> {
    return this.permission;
  }
  available(): boolean {
    return this.api || this.carrying;
  }
  onAvailable(listener: () => void): void {
    this.watchers.push(listener);
  }
  /** A carrier page comes (true) or goes (false), as entrypoints/background/native.ts says it. */
  carry(on: boolean): void {
    this.carrying = on;
    for (const w of this.watchers) w();
  }
  disconnectReason(port: NativePort): string | null {
    return (port as NativePort & { reason?: string | null }).reason ?? null;
  }
  connectNative(): NativePort {
    this.connects++;
    const onMessage: ((m: unknown) => void)[] = [];
    const onDisconnect: ((p: NativePort) => void)[] = [];
    const worker = { allowed: true, caller: FAKE_CALLER, places: this.places, now: () => Date.now() };
    const port: NativePort & { reason: string | null } = {
      reason: null,
      postMessage: (message) => {
        const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
        this.sent.push(copy);
        setTimeout(() => {
          if (!this.installed) {
            port.reason = 'Specified native messaging host not found.';
            for (const l of onDisconnect) l(port);
            return;
          }
          const reply = JSON.parse(JSON.stringify(answer(Buffer.from(JSON.stringify(copy)), worker)));
          for (const l of onMessage) l(reply);
        }, 0);
      },
      disconnect: () => undefined,
      onMessage: { addListener: (l) => onMessage.push(l) },
      onDisconnect: { addListener: (l) => onDisconnect.push(l) },
    };
    return port;
  }

  /** The skills the mirror on disk holds, by URL, each only when every file still matches its record. */
  mirrored(): Map<string, Map<string, Buffer>> {
    const mirror = new Mirror(mirrorDir(this.places));
    const out = new Map<string, Map<string, Buffer>>();
    for (const r of mirror.records()) {
      const files = mirror.verifiedFiles(r);
      if (files !== null) out.set(r.url, files);
    }
    return out;
  }

  /** The SKILL.md of the copy in an agent folder, or null when there is none. */
  agentCopy(folder: string, name: string): Buffer | null {
    try {
      return readFileSync(join(this.places.home, folder, name, 'SKILL.md'));
    } catch {
      return null;
    }
  }

  /** The messages of the types given that were sent since `from`. */
  sentSince(from: number, ...types: string[]): Record<string, unknown>[] {
    return this.sent.slice(from).filter((m) => types.includes(String(m.type)));
  }

  close(): void {
    for (const h of this.handles) clearTimeout(h);
    this.handles.clear();
    this.temp.cleanup();
  }
}
