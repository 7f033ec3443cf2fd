// Shared test harness: a fake background behind createClient, a mount helper and
// small DOM helpers. Every message the UI sends is checked with the background's
// own validator.
import { render, type ComponentChild } from 'preact';
import { act } from 'preact/test-utils';
import { afterAll } from 'vitest';
import { type DesktopStatus, parseRequest, type RequestMap, type RequestType, type StateChangeKind } from '../../../lib/messages';
import { createClient, type Client } from '../../../components/shared/client';
import type { OptionsEnv } from '../../../components/options/env';
import type { PopupEnv } from '../../../components/popup/env';
import { setMessageSource } from '../../../lib/i18n';
import { setUiLanguage } from '../../../lib/i18n/format';
import { pinsPage } from '../../../lib/types/pins-page';
import { DEFAULT_SETTINGS, type Pin } from '../../../lib/types';

setMessageSource(null);
// Dates as an English browser in UTC shows them, whatever the machine's zone.
setUiLanguage(() => 'en-US', 'UTC');

type Handler<T extends RequestType> = (req: RequestMap[T]['request']) => RequestMap[T]['response'] | Promise<RequestMap[T]['response']>;
export type Handlers = { [T in RequestType]?: Handler<T> };

export interface SentMessage {
  type: RequestType;
  [field: string]: unknown;
}

export function fakeBackground(handlers: Handlers) {
  const sent: SentMessage[] = [];
  const invalid: unknown[] = [];
  const send = async (msg: unknown): Promise<unknown> => {
    const parsed = parseRequest(msg);
    if (!parsed) {
      invalid.push(msg);
      throw new Error('invalid message');
    }
    sent.push(parsed as unknown as SentMessage);
    const handler = handlers[parsed.type] as ((req: unknown) => unknown) | undefined;
    if (!handler) throw new Error(`no handler for ${parsed.type}`);
    return handler(parsed);
  };
  const client = createClient(send);
  return {
    client,
    sent,
    invalid,
    ofType: (type: RequestType) => sent.filter((m) => m.type === type),
  };
}

export async function flush(rounds = 6): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  }
}

/**
 * The trees mount() rendered in this file. When the file ends they are unmounted, and preact's
 * after-paint work (a frame or 100 ms later) is let run, while the test DOM still exists: a tree left
 * mounted went on rendering after the DOM was torn down, and preact then called
 * requestAnimationFrame, which no longer existed (an unhandled error that fails the run, seen on a
 * loaded machine).
 */
const mounted: HTMLElement[] = [];

afterAll(async () => {
  await act(() => {
    for (const root of mounted.splice(0)) render(null, root);
  });
  await new Promise((r) => setTimeout(r, 150));
});

export async function mount(node: ComponentChild): Promise<HTMLElement> {
  document.body.innerHTML = '';
  const root = document.createElement('div');
  document.body.appendChild(root);
  mounted.push(root);
  await act(() => {
    render(node, root);
  });
  await flush();
  return root;
}

export async function click(el: Element | null | undefined): Promise<void> {
  if (!el) throw new Error('element to click not found');
  await act(() => {
    (el as HTMLElement).click();
  });
  await flush();
}

export async function key(el: Element, keyName: string, init: KeyboardEventInit = {}): Promise<void> {
  await act(() => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true, ...init }));
  });
  await flush();
}

export async function typeInto(el: Element | null, value: string): Promise<void> {
  if (!el) throw new Error('field not found');
  await act(() => {
    (el as HTMLTextAreaElement).value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await flush();
}

export function byText(root: ParentNode, selector: string, text: string): HTMLElement | undefined {
  return Array.from(root.querySelectorAll<HTMLElement>(selector)).find((el) => (el.textContent ?? '').includes(text));
}

export function unmount(root: HTMLElement): void {
  render(null, root);
}

/** The background's pin messages over `pins()`: the whole list, and pages cut by the background's own function. */
export function pinHandlers(pins: () => Pin[]): Handlers {
  return {
    'skillpin:pins-list': () => pins(),
    'skillpin:pins-page': (req) => pinsPage(pins(), req),
  };
}

/** What the options page asks for when it opens, answered with the defaults and empty lists. */
export function optionsPageHandlers(): Handlers {
  return {
    'skillpin:settings-get': () => DEFAULT_SETTINGS,
    ...pinHandlers(() => []),
    'skillpin:key-history': () => [],
    'skillpin:approvals-list': () => [],
    'skillpin:reports-list': () => [],
    'skillpin:desktop-status': () => DESKTOP_OFF,
  };
}

/** The desktop mirror as a fresh install has it: off, nothing granted, nothing handed over. */
export const DESKTOP_OFF: DesktopStatus = {
  enabled: false,
  permission: false,
  state: 'off',
  message: null,
  hostVersion: null,
  installCommand: 'bin/skillpin install-host --chrome-id abcdefghijklmnopabcdefghijklmnop',
  folders: [],
  skills: [],
  refused: [],
  syncedAt: null,
  checkedAt: null,
  manifestPlaces: [],
};

/** The popup's outside world with nothing to watch: the copy works, no chat tab; a test overrides what it records. */
export function popupEnv(client: Client, overrides: Partial<PopupEnv> = {}): PopupEnv {
  return { client, clipboard: async () => true, findChatTab: async () => null, optionsUrl: '/options.html', ...overrides };
}

/** The options page's outside world with nothing to watch; a test overrides what it records. */
export function optionsEnv(client: Client, overrides: Partial<OptionsEnv> = {}): OptionsEnv {
  return { client, clipboard: async () => true, download: () => undefined, popupUrl: '/popup.html', ...overrides };
}

/**
 * The page's change signal (the storage.onChanged wiring in entrypoints/options) as a test drives
 * it: pass `watchChanges` in the env, then `changed(kind)` tells every listener and lets the page settle.
 */
export function changeSignal(): { watchChanges: NonNullable<OptionsEnv['watchChanges']>; changed: (kind: StateChangeKind) => Promise<void> } {
  const listeners = new Set<(kind: StateChangeKind) => void>();
  return {
    watchChanges: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    changed: async (kind) => {
      for (const l of listeners) await act(() => l(kind));
      await flush();
    },
  };
}
