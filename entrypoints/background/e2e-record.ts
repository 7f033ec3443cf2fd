// The end-to-end build only (SKILLPIN_E2E_BUILD=1, wxt.config.ts): the background records every
// listener function it registers, by event ("contextMenus.onClicked", "runtime.onStartup" …), and
// the navigations it handled. A test cannot click a native context menu or a system notification, nor
// start a profile so that runtime.onStartup fires for an unpacked extension (Chromium installs it
// anew at each launch); it calls the very function the background registered for that event, with
// a real tab and real click data. Production bundles never contain this module: index.ts reaches
// it only behind import.meta.env.SKILLPIN_E2E, which the production build replaces with false,
// and `npm run check:packages` fails on a package that names E2E_GLOBAL.
import type { NavEvent } from '@/lib/background/page-events';

declare global {
  interface ImportMetaEnv {
    /** true in the end-to-end build only (wxt.config.ts defines it). */
    readonly SKILLPIN_E2E: boolean;
  }
}

/** The global the end-to-end tests read (test/e2e/support/listeners.ts). */
export const E2E_GLOBAL = 'skillpinTest';

type Listener = (...args: never[]) => unknown;

export interface E2eRecord {
  /** Every listener function registered for each event, in the order of registration. */
  listeners: Record<string, Listener[]>;
  /** The last 200 navigations handled (at a load event, or a stopped load), oldest first. */
  navTrace: NavEvent[];
  onNavEvent(event: NavEvent): void;
}

const TRACE_MAX = 200;

function isEvent(v: unknown): v is { addListener: (fn: Listener, ...rest: unknown[]) => unknown } {
  return typeof v === 'object' && v !== null && typeof (v as { addListener?: unknown }).addListener === 'function';
}

/**
 * Records the listeners the background registers at its top level: wraps addListener of every
 * event of every namespace of `api` until the current synchronous run ends (a microtask puts the
 * browser's own addListener back), so listeners added later (a test's own in the worker, a
 * per-request one) are neither recorded nor kept alive. Call before any listener is added.
 */
export function startE2eRecord(api: object): E2eRecord {
  const record: E2eRecord = {
    listeners: {},
    navTrace: [],
    onNavEvent(event) {
      record.navTrace.push(event);
      if (record.navTrace.length > TRACE_MAX) record.navTrace.shift();
    },
  };
  const restore: Array<() => void> = [];
  const namespaces = api as Record<string, unknown>;
  for (const ns of Object.keys(namespaces)) {
    let space: unknown;
    try {
      space = namespaces[ns];
    } catch {
      continue;
    }
    if (typeof space !== 'object' || space === null) continue;
    for (const name of Object.keys(space)) {
      if (!name.startsWith('on')) continue;
      const event = (space as Record<string, unknown>)[name];
      if (!isEvent(event)) continue;
      const add = event.addListener;
      const own = Object.hasOwn(event, 'addListener');
      const key = `${ns}.${name}`;
      try {
        event.addListener = function (fn: Listener, ...rest: unknown[]) {
          record.listeners[key] = [...(record.listeners[key] ?? []), fn];
          return add.call(this, fn, ...rest);
        };
        restore.push(() => {
          if (own) event.addListener = add;
          else delete (event as { addListener?: unknown }).addListener;
        });
      } catch {
        // A browser whose event objects cannot be changed: that event is not recorded.
      }
    }
  }
  queueMicrotask(() => {
    for (const undo of restore) undo();
  });
  (globalThis as Record<string, unknown>)[E2E_GLOBAL] = record;
  return record;
}
