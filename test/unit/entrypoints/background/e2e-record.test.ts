// The end-to-end build's listener record: every function registered on an event of the API in the
// background's start-up run is kept under "namespace.event" and still reaches the event itself;
// later ones are not kept; anything that is not an event is left alone; the navigation trace keeps
// the last 200 events. The global it sets is removed
// after each test.
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_GLOBAL, startE2eRecord } from '../../../../entrypoints/background/e2e-record';

function fakeEvent() {
  const added: unknown[] = [];
  return {
    added,
    addListener(fn: unknown) {
      added.push(fn);
    },
    hasListeners: () => added.length > 0,
  };
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[E2E_GLOBAL];
});

describe('e2e listener record', () => {
  it('records each listener by event, in order, and still registers it', () => {
    const api = { contextMenus: { onClicked: fakeEvent(), create: () => undefined }, runtime: { onStartup: fakeEvent(), onMessage: fakeEvent(), id: 'x' } };
    const record = startE2eRecord(api);
    const a = () => 'a';
    const b = () => 'b';
    api.contextMenus.onClicked.addListener(a);
    api.contextMenus.onClicked.addListener(b);
    api.runtime.onStartup.addListener(b);
    expect(record.listeners).toEqual({ 'contextMenus.onClicked': [a, b], 'runtime.onStartup': [b] });
    expect(api.contextMenus.onClicked.added).toEqual([a, b]);
    expect(api.runtime.onStartup.hasListeners()).toBe(true);
    expect(api.runtime.onMessage.hasListeners()).toBe(false);
    expect((globalThis as Record<string, unknown>)[E2E_GLOBAL]).toBe(record);
  });

  it("records only what is registered in the same synchronous run: later listeners are the browser's alone", async () => {
    const onCompleted = fakeEvent();
    const proto = { addListener: onCompleted.addListener };
    const event = Object.assign(Object.create(proto) as typeof proto, { added: onCompleted.added });
    const api = { webNavigation: { onCompleted: event }, alarms: { onAlarm: fakeEvent() } };
    const record = startE2eRecord(api);
    const top = () => 'top';
    api.webNavigation.onCompleted.addListener(top);
    await Promise.resolve();
    const later = () => 'later';
    api.webNavigation.onCompleted.addListener(later);
    api.alarms.onAlarm.addListener(later);
    expect(record.listeners).toEqual({ 'webNavigation.onCompleted': [top] });
    expect(onCompleted.added).toEqual([top, later]);
    expect(api.alarms.onAlarm.added).toEqual([later]);
    // The wrapper is gone: the event's own addListener (here its prototype's) is back.
    expect(Object.hasOwn(event, 'addListener')).toBe(false);
    expect(Object.hasOwn(api.alarms.onAlarm, 'addListener')).toBe(true);
  });

  it('leaves alone what is not an event, and a namespace whose getter throws', () => {
    const api = {
      get offscreen(): never {
        throw new Error('not available');
      },
      storage: { onChanged: fakeEvent(), local: { get: () => undefined } },
      version: '1',
    };
    const record = startE2eRecord(api);
    const f = () => undefined;
    api.storage.onChanged.addListener(f);
    expect(Object.keys(record.listeners)).toEqual(['storage.onChanged']);
  });

  it('keeps the last 200 navigations handled', () => {
    const record = startE2eRecord({});
    for (let i = 0; i < 250; i++) record.onNavEvent({ kind: 'load', tabId: i, url: `http://a.test/${i}` });
    expect(record.navTrace).toHaveLength(200);
    expect(record.navTrace[0]?.tabId).toBe(50);
    expect(record.navTrace.at(-1)?.tabId).toBe(249);
  });
});
