// Settings.chatSites in the background: the settings-set message (validator and handler)
// and the context menu's "Insert skill context" patterns for the user's chat sites.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundPlatform, BackgroundService } from '../../../lib/background/service';
import { insertItemId, menuModel, type MenuModel } from '../../../lib/background/menus';
import { CHAT_MATCH_PATTERNS } from '../../../lib/chat/adapters';
import { chatSitePatterns } from '../../../lib/chat/sites';
import { parseRequest, type ApprovedSkillSummary, type ContextResult } from '../../../lib/messages';
import { DEFAULT_SETTINGS, type OriginReport, type Settings } from '../../../lib/types';
import type { TestServer } from '../../support/server';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { DEMO_SKILLS } from '../../../scripts/lib/publisher-site.mjs';
import { FakeHandOff } from './fake-platform';
import { OPTIONS_PAGE, startService } from './service-harness';

const CONTENT_SCRIPT = { id: 'ext-id', url: 'http://localhost:3000/', tab: { id: 7, url: 'http://localhost:3000/' } };

/** Keeps every menu model the background set, not only the last. */
class Platform extends FakeHandOff implements BackgroundPlatform {
  menus: MenuModel[] = [];
  async setBadge() {}
  async notify() {}
  async listTabs() {
    return [];
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

const makeService = (): Promise<BackgroundService> => startService({ platform, name: 'chat-sites-test' });

const ask = <T>(msg: Record<string, unknown>, sender: object = OPTIONS_PAGE) => service.handleMessage(msg, sender) as Promise<T>;

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

describe('chatSitePatterns', () => {
  it('one scheme://host/* per origin, port left out, in order, without duplicates', () => {
    expect(chatSitePatterns(['http://localhost:3000', 'https://chat.internal.example', 'http://localhost:8080', 'http://127.0.0.1:41234'])).toEqual([
      'http://localhost/*',
      'https://chat.internal.example/*',
      'http://127.0.0.1/*',
    ]);
  });

  it('skips what is not an exact origin and hosts a pattern cannot spell', () => {
    expect(chatSitePatterns(['http://[::1]:3000', 'http://localhost:3000/chat', 'ftp://a.example', '*.example.com', 7, null, 'https://ok.example'])).toEqual(['https://ok.example/*']);
    expect(chatSitePatterns([])).toEqual([]);
  });
});

describe('menuModel insert patterns', () => {
  const approved: ApprovedSkillSummary[] = [
    {
      origin: 'https://docs.example.com',
      url: 'https://docs.example.com/s/SKILL.md',
      name: 'search',
      status: 'verified-signed',
      usable: true,
      approvedAt: 1,
      description: null,
      verifiedAt: 1,
      size: 10,
      tokens: 60,
      attention: null,
      refusal: null,
    },
  ];

  it('are the built-in chat sites when the user has none', () => {
    expect(menuModel(approved).insertPatterns).toEqual(CHAT_MATCH_PATTERNS);
    expect(menuModel(approved, []).insertPatterns).toEqual(CHAT_MATCH_PATTERNS);
  });

  it('add the user chat sites after the built-in ones, the items unchanged', () => {
    const model = menuModel(approved, ['http://localhost:3000', 'https://chat.internal.example']);
    expect(model.insertPatterns).toEqual([...CHAT_MATCH_PATTERNS, 'http://localhost/*', 'https://chat.internal.example/*']);
    expect(model.insertItems).toEqual(menuModel(approved).insertItems);
  });

  it('leave out a skill whose findings wait for the user’s confirmation (the gate would refuse it)', () => {
    const waiting = approved.map((a) => ({ ...a, attention: 'needs-confirmation' as const }));
    expect(menuModel(waiting).insertItems).toEqual([]);
    expect(menuModel(waiting).copyItems).toEqual([]);
    expect(menuModel(approved).insertItems).toHaveLength(1);
  });
});

describe('the background menus follow the stored chat sites', () => {
  let published: ServedSite;
  let server: TestServer;

  beforeEach(async () => {
    published = await servePublisherSite('skillpin-chat-sites-', { skills: DEMO_SKILLS, seed: new Uint8Array(32).fill(9) });
    ({ server } = published);
  });

  afterEach(async () => {
    await published.close();
  });

  it('refreshMenus reads chatSites from the store; saving settings refreshes the menus', async () => {
    await service.refreshMenus();
    expect(platform.menus.at(-1)?.insertPatterns).toEqual(CHAT_MATCH_PATTERNS);
    await ask({ type: 'skillpin:settings-set', settings: { ...DEFAULT_SETTINGS, chatSites: ['http://localhost:3000'] } });
    expect(platform.menus.at(-1)?.insertPatterns).toEqual([...CHAT_MATCH_PATTERNS, 'http://localhost/*']);
    await service.refreshMenus();
    expect(platform.menus.at(-1)?.insertPatterns).toEqual([...CHAT_MATCH_PATTERNS, 'http://localhost/*']);
    await ask({ type: 'skillpin:settings-set', settings: DEFAULT_SETTINGS });
    expect(platform.menus.at(-1)?.insertPatterns).toEqual(CHAT_MATCH_PATTERNS);
  });

  it('the insert item of an approved skill inserts its exact context into a user chat site tab', async () => {
    await ask({ type: 'skillpin:settings-set', settings: { ...DEFAULT_SETTINGS, chatSites: ['http://localhost:3000'] } });
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
    const skill = report.skills[0];
    if (!skill?.url || !skill.actual) throw new Error('no skill');
    expect(await ask({ type: 'skillpin:approve', origin: server.origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false })).toEqual({ ok: true });
    const model = platform.menus.at(-1);
    const id = insertItemId(server.origin, skill.url);
    expect(model?.insertItems.map((i) => i.id)).toContain(id);
    expect(model?.insertPatterns).toContain('http://localhost/*');
    const worker = await ask<ContextResult>({ type: 'skillpin:skill-context', origin: server.origin, url: skill.url });
    if (!worker.ok) throw new Error(worker.message);
    platform.show(7, 'http://localhost:3000/c/1');
    expect(await service.onMenuClick(id, { id: 7, url: 'http://localhost:3000/c/1' })).toBe(true);
    expect(platform.inserts).toEqual([{ tabId: 7, frameId: 0, text: worker.context, origin: 'http://localhost:3000' }]);
    // The menu shows on every port of that host (match patterns have no port): another port gets nothing.
    platform.show(8, 'http://localhost:3001/c/1');
    expect(await service.onMenuClick(id, { id: 8, url: 'http://localhost:3001/c/1' })).toBe(false);
    expect(platform.inserts).toHaveLength(1);
    // The frame the menu was opened in decides, not the tab's top page.
    platform.show(7, 'http://ads.localhost:3000/frame', 4);
    expect(await service.onMenuClick(id, { id: 7, url: 'http://localhost:3000/c/1' }, 4)).toBe(false);
    platform.show(7, 'http://localhost:3000/embedded', 5);
    expect(await service.onMenuClick(id, { id: 7, url: 'http://localhost:3000/c/1' }, 5)).toBe(true);
    expect(platform.inserts.at(-1)).toMatchObject({ tabId: 7, frameId: 5 });
  });
});
