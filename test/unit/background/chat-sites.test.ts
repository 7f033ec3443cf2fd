// Settings.chatSites in the background: the settings-set message (validator and handler)
// and the context menu's "Insert skill context" patterns for the user's chat sites.
import { beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { createBackgroundService, type BackgroundPlatform, type BackgroundService } from '../../../lib/background/service';
import type { MenuModel } from '../../../lib/background/menus';
import { parseRequest, type InsertResult } from '../../../lib/messages';
import { openTrustStore } from '../../../lib/trust/idb-store';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/types';

const EXT = 'chrome-extension://abcdefghijklmnop/';
const POPUP = { id: 'ext-id', url: `${EXT}options.html`, origin: 'chrome-extension://abcdefghijklmnop' };
const CONTENT_SCRIPT = { id: 'ext-id', url: 'http://localhost:3000/', tab: { id: 7, url: 'http://localhost:3000/' } };

class Platform implements BackgroundPlatform {
  menus: MenuModel[] = [];
  inserts: { tabId: number; text: string }[] = [];
  async setBadge() {}
  async notify() {}
  async listTabs() {
    return [];
  }
  async insertIntoTab(tabId: number, text: string): Promise<InsertResult> {
    this.inserts.push({ tabId, text });
    return { ok: true, method: 'execCommand', message: 'inserted' };
  }
  async copyText() {
    return true;
  }
  async updateMenus(model: MenuModel) {
    this.menus.push(model);
  }
  async getLocal() {
    return undefined;
  }
  async setLocal() {}
}

let platform: Platform;
let service: BackgroundService;

async function makeService(): Promise<BackgroundService> {
  const s = createBackgroundService({
    openStore: () => openTrustStore({ name: 'chat-sites-test', indexedDB: new IDBFactory() }),
    fetch: (url, init) => fetch(url, init),
    clock: { now: () => Date.parse('2026-11-29T12:00:00Z') },
    platform,
    runtimeId: 'ext-id',
    extensionBase: EXT,
    version: '0.1.0',
  });
  await s.ready;
  return s;
}

const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;

function legacySettings(): Record<string, unknown> {
  const { chatSites: _omitted, ...rest } = DEFAULT_SETTINGS;
  return { ...rest };
}

beforeEach(async () => {
  platform = new Platform();
  service = await makeService();
});

describe('settings-set with chatSites', () => {
  it('the validator accepts a list of exact origins or no list at all', () => {
    expect(parseRequest({ type: 'skillpin:settings-set', settings: { ...DEFAULT_SETTINGS, chatSites: ['http://localhost:3000', 'https://a.example'] } })).not.toBeNull();
    expect(parseRequest({ type: 'skillpin:settings-set', settings: legacySettings() })).not.toBeNull();
  });

  it('the validator refuses anything but exact http(s) origins', () => {
    const bad: unknown[] = [
      'http://localhost:3000',
      null,
      {},
      ['http://localhost:3000/'],
      ['http://localhost:3000/chat'],
      ['localhost:3000'],
      ['*.example.com'],
      ['file:///tmp/chat.html'],
      ['javascript:alert(1)'],
      ['https://A.example'],
      [3000],
      Array.from({ length: 101 }, (_, i) => `https://h${i}.example`),
    ];
    for (const chatSites of bad) {
      expect(parseRequest({ type: 'skillpin:settings-set', settings: { ...DEFAULT_SETTINGS, chatSites } }), JSON.stringify(chatSites).slice(0, 50)).toBeNull();
    }
  });

  it('stores the list, and a sender without the field keeps the stored list', async () => {
    const settings: Settings = { ...DEFAULT_SETTINGS, chatSites: ['http://localhost:3000'] };
    expect(await ask({ type: 'skillpin:settings-set', settings })).toEqual({ ok: true });
    expect(await ask<Settings>({ type: 'skillpin:settings-get' })).toEqual(settings);
    expect(await ask({ type: 'skillpin:settings-set', settings: { ...legacySettings(), paused: true } })).toEqual({ ok: true });
    expect(await ask<Settings>({ type: 'skillpin:settings-get' })).toEqual({ ...settings, paused: true });
    expect(await ask({ type: 'skillpin:settings-set', settings: { ...settings, chatSites: [] } })).toEqual({ ok: true });
    expect((await ask<Settings>({ type: 'skillpin:settings-get' })).chatSites).toEqual([]);
  });

  it('a content script cannot change the list', async () => {
    const settings: Settings = { ...DEFAULT_SETTINGS, chatSites: ['http://localhost:3000'] };
    expect(await ask({ type: 'skillpin:settings-set', settings }, CONTENT_SCRIPT)).toMatchObject({ ok: false, error: 'forbidden' });
    expect((await ask<Settings>({ type: 'skillpin:settings-get' })).chatSites).toEqual([]);
  });
});
