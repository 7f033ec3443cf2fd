// The options page's Save (settings-update): only the changed fields travel, the background
// merges them over what is stored now, and every change of settings or trust state is
// announced to open pages through STATE_CHANGE_KEY (lib/messages/state-change.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { BackgroundPlatform, BackgroundService } from '../../../lib/background/service';
import { parseRequest, parseStateChange, STATE_CHANGE_KEY, type StateChange } from '../../../lib/messages';
import { mergeSettings, settingsChanges } from '../../../lib/store/settings';
import { parseInput } from '../../../lib/input';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/types';
import { OPTIONS_PAGE as OPTIONS, startService } from './service-harness';

const isSettingsChanges = (v: unknown): boolean => parseInput(settingsChanges(), v).ok;

const CONTENT_SCRIPT = { id: 'ext-id', url: 'https://chat.example/', origin: 'https://chat.example', tab: { id: 3 } };

let local: Map<string, unknown>;
let changes: StateChange[];
let failLocal: boolean;

const platform: BackgroundPlatform = {
  setBadge: async () => undefined,
  notify: async () => undefined,
  listTabs: async () => [],
  frameUrl: async () => null,
  sendToFrame: async () => undefined,
  copyText: async () => false,
  updateMenus: async () => undefined,
  getLocal: async (key) => local.get(key),
  setLocal: async (key, value) => {
    if (failLocal) throw new Error('storage unavailable');
    local.set(key, value);
    if (key === STATE_CHANGE_KEY) {
      const change = parseStateChange(value);
      if (change) changes.push(change);
    }
  },
};

let factory: IDBFactory;
const makeService = (): Promise<BackgroundService> => startService({ platform, name: 'settings-update', indexedDB: factory, fetch: () => Promise.reject(new Error('no network in this test')) });

beforeEach(() => {
  factory = new IDBFactory();
  local = new Map();
  changes = [];
  failLocal = false;
});

describe('mergeSettings', () => {
  const latest: Settings = { ...DEFAULT_SETTINGS, chatSites: ['http://127.0.0.1:4000'], denyList: ['https://bank.example'] };

  it('applies only the changed fields; every other field keeps the latest stored value', () => {
    const merged = mergeSettings(latest, { paused: true, allowList: ['https://docs.example'] });
    expect(merged).toEqual({ ...latest, paused: true, allowList: ['https://docs.example'] });
  });

  it('an empty change is the latest settings, and neither argument is modified', () => {
    const before = structuredClone(latest);
    const change = { denyList: ['https://other.example'] };
    const merged = mergeSettings(latest, change);
    merged.denyList.push('https://mutated.example');
    expect(latest).toEqual(before);
    expect(change).toEqual({ denyList: ['https://other.example'] });
    expect(mergeSettings(latest, {})).toEqual(latest);
  });

  it('ignores unknown and ill-typed fields', () => {
    const merged = mergeSettings(latest, { paused: 'yes', bogus: 1, chatSites: ['not an origin'] } as unknown as Partial<Settings>);
    expect(merged).toEqual(latest);
  });

  it('settingsChanges accepts known fields of the right type only', () => {
    expect(isSettingsChanges({})).toBe(true);
    expect(isSettingsChanges({ paused: false, chatSites: ['https://chat.example'] })).toBe(true);
    expect(isSettingsChanges({ paused: 'no' })).toBe(false);
    expect(isSettingsChanges({ chatSites: ['ftp://x.example'] })).toBe(false);
    expect(isSettingsChanges({ unknown: true })).toBe(false);
    expect(isSettingsChanges({ __proto__: { paused: true }, toString: 1 })).toBe(false);
    expect(isSettingsChanges([])).toBe(false);
    expect(isSettingsChanges(null)).toBe(false);
  });
});

describe('settings-update in the background', () => {
  it('the validator refuses malformed changes', () => {
    expect(parseRequest({ type: 'skillpin:settings-update', changes: { paused: true } })).not.toBeNull();
    expect(parseRequest({ type: 'skillpin:settings-update', changes: { paused: 1 } })).toBeNull();
    expect(parseRequest({ type: 'skillpin:settings-update', changes: { evil: true } })).toBeNull();
    expect(parseRequest({ type: 'skillpin:settings-update' })).toBeNull();
  });

  it('merges over what another page stored since this one loaded, and answers the stored result', async () => {
    const service = await makeService();
    const ask = (m: unknown) => service.handleMessage(m, OPTIONS);
    // Another page saves a chat site after this page loaded the defaults.
    await ask({ type: 'skillpin:settings-set', settings: { ...DEFAULT_SETTINGS, chatSites: ['http://127.0.0.1:4000'] } });
    // This page's Save changed only the deny list.
    const res = await ask({ type: 'skillpin:settings-update', changes: { denyList: ['https://bank.example'] } });
    const expected = { ...DEFAULT_SETTINGS, chatSites: ['http://127.0.0.1:4000'], denyList: ['https://bank.example'] };
    expect(res).toEqual({ ok: true, settings: expected });
    expect(await ask({ type: 'skillpin:settings-get' })).toEqual(expected);
    // And a restarted worker reads the same from the store.
    expect(await (await makeService()).handleMessage({ type: 'skillpin:settings-get' }, OPTIONS)).toEqual(expected);
  });

  it('is privileged: a content script cannot change settings', async () => {
    const service = await makeService();
    expect(await service.handleMessage({ type: 'skillpin:settings-update', changes: { paused: true } }, CONTENT_SCRIPT)).toMatchObject({ ok: false, error: 'forbidden' });
    expect(await service.handleMessage({ type: 'skillpin:settings-get' }, OPTIONS)).toEqual(DEFAULT_SETTINGS);
    expect(changes).toEqual([]);
  });

  it('announces each change of settings or trust state with a new value; reads announce nothing', async () => {
    const service = await makeService();
    const ask = (m: unknown) => service.handleMessage(m, OPTIONS);
    await ask({ type: 'skillpin:settings-get' });
    await ask({ type: 'skillpin:pins-list' });
    expect(changes).toEqual([]);
    await ask({ type: 'skillpin:settings-update', changes: { paused: true } });
    await ask({ type: 'skillpin:settings-set', settings: DEFAULT_SETTINGS });
    await ask({ type: 'skillpin:pin-forget', origin: 'https://a.example' });
    await ask({ type: 'skillpin:import', json: '{}' });
    expect(changes.map((c) => c.kind)).toEqual(['settings', 'settings', 'trust', 'trust']);
    // storage.onChanged fires only for a new value: every announcement differs from the last.
    expect(new Set(changes.map((c) => JSON.stringify(c))).size).toBe(changes.length);
  });

  it('a failed announcement does not fail the save', async () => {
    const service = await makeService();
    failLocal = true;
    expect(await service.handleMessage({ type: 'skillpin:settings-update', changes: { paused: true } }, OPTIONS)).toMatchObject({ ok: true });
    expect(await service.handleMessage({ type: 'skillpin:settings-get' }, OPTIONS)).toEqual({ ...DEFAULT_SETTINGS, paused: true });
  });
});
