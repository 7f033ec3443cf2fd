import { describe, expect, it } from 'vitest';
import { SETTINGS_KEY } from '../../../lib/store/schema';
import { DEFAULT_SETTINGS } from '../../../lib/types';
import type { Settings } from '../../../lib/types';
import { freshStore, keyPair, plant, rawAll } from './helpers';

const CUSTOM: Settings = {
  paused: true,
  probeInPrivate: true,
  allowList: ['https://docs.example.com'],
  denyList: ['*.tracker.example'],
  allowListOnly: true,
  legacyIndex: false,
  shortHeader: true,
  reviewers: { acme: { public_key: 'AAAA', registered_at: '2026-01-01' } },
  snapshotKeys: [{ origin: 'https://a.example', skillId: 'x', publicKey: 'k', signature: 's', keyId: 'id' }],
  chatSites: ['http://localhost:3000', 'https://chat.internal.example'],
  desktopMirror: true,
  desktopAgents: ['claude-code', 'gemini-cli'],
  desktopConfirmed: [{ origin: 'https://docs.example.com', url: 'https://docs.example.com/skills/run/SKILL.md', agent: 'claude-code', revision: 'a'.repeat(64) }],
};

describe('settings', () => {
  it('are the defaults when nothing is stored', async () => {
    const { store, errors } = await freshStore();
    expect(await store.getSettings()).toEqual(DEFAULT_SETTINGS);
    expect(errors).toEqual([]);
  });

  it('returned defaults are a copy: mutating them changes nothing shared', async () => {
    const { store } = await freshStore();
    const s = await store.getSettings();
    s.allowList.push('https://mutated.example');
    expect(DEFAULT_SETTINGS.allowList).toEqual([]);
    expect((await store.getSettings()).allowList).toEqual([]);
  });

  it('round-trip', async () => {
    const { store } = await freshStore();
    await store.putSettings(CUSTOM);
    expect(await store.getSettings()).toEqual(CUSTOM);
  });

  it('putSettings refuses incomplete or mistyped settings and keeps the stored ones', async () => {
    const { store } = await freshStore();
    await store.putSettings(CUSTOM);
    await expect(store.putSettings({ ...CUSTOM, paused: 'yes' } as unknown as Settings)).rejects.toMatchObject({ code: 'invalid-input' });
    const { legacyIndex: _dropped, ...partial } = CUSTOM;
    await expect(store.putSettings(partial as Settings)).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getSettings()).toEqual(CUSTOM);
  });

  it('putSettings stores only known fields', async () => {
    const { store, factory, name } = await freshStore();
    await store.putSettings({ ...CUSTOM, extra: 1 } as unknown as Settings);
    expect(await rawAll(factory, name, 'settings')).toEqual([CUSTOM]);
  });

  it('a stored record with missing and unknown fields merges over the defaults silently', async () => {
    const { store, factory, name, errors } = await freshStore();
    await plant(factory, name, 'settings', { paused: true, fromTheFuture: { x: 1 } }, SETTINGS_KEY);
    expect(await store.getSettings()).toEqual({ ...DEFAULT_SETTINGS, paused: true });
    expect(errors).toEqual([]);
  });

  it('fields of the wrong type take their defaults, field by field, and are reported', async () => {
    const { store, factory, name, errors } = await freshStore();
    const stored = { ...CUSTOM, allowList: ['ok', 7], reviewers: { acme: { public_key: 1 } }, legacyIndex: 'no' };
    await plant(factory, name, 'settings', stored, SETTINGS_KEY);
    expect(await store.getSettings()).toEqual({ ...CUSTOM, allowList: [], reviewers: {}, legacyIndex: true });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe('corrupt-record');
    expect(errors[0]?.message).toMatch(/allowList.*legacyIndex.*reviewers|allowList/);
    // The record is kept as it was.
    expect(await rawAll(factory, name, 'settings')).toEqual([stored]);
  });

  it('a record that is not an object gives the defaults and a report, and pins are untouched', async () => {
    const { store, factory, name, errors } = await freshStore();
    const k = keyPair(4);
    await store.pinIfAbsent('https://a.example', k.key, k.fingerprint, 1);
    await plant(factory, name, 'settings', 'garbage', SETTINGS_KEY);
    expect(await store.getSettings()).toEqual(DEFAULT_SETTINGS);
    expect(errors.map((e) => e.code)).toEqual(['corrupt-record']);
    expect(await store.listPins()).toHaveLength(1);
  });

  it('a malformed snapshot key invalidates only that field', async () => {
    const { store, factory, name } = await freshStore();
    await plant(factory, name, 'settings', { ...CUSTOM, snapshotKeys: [{ origin: 'https://a.example' }] }, SETTINGS_KEY);
    expect(await store.getSettings()).toEqual({ ...CUSTOM, snapshotKeys: [] });
  });

  it('a record stored before chatSites existed reads with no chat sites, every other field kept', async () => {
    const { store, factory, name, errors } = await freshStore();
    const { chatSites: _none, ...old } = CUSTOM;
    await plant(factory, name, 'settings', old, SETTINGS_KEY);
    expect(await store.getSettings()).toEqual({ ...CUSTOM, chatSites: [] });
    expect(errors).toEqual([]);
  });

  it('chatSites holding anything but exact http(s) origins takes its default and is reported', async () => {
    for (const bad of [
      'http://localhost:3000',
      ['http://localhost:3000/'],
      ['http://localhost:3000/chat'],
      ['HTTP://LOCALHOST:3000'],
      ['https://a.example:443'],
      ['ftp://a.example'],
      ['*.example.com'],
      [7],
      Array.from({ length: 101 }, (_, i) => `https://h${i}.example`),
    ]) {
      const { store, factory, name, errors } = await freshStore();
      await plant(factory, name, 'settings', { ...CUSTOM, chatSites: bad }, SETTINGS_KEY);
      expect(await store.getSettings(), JSON.stringify(bad).slice(0, 60)).toEqual({ ...CUSTOM, chatSites: [] });
      expect(errors[0]?.message).toContain('chatSites');
    }
  });

  it('putSettings refuses chatSites that are not exact origins and keeps the stored ones', async () => {
    const { store } = await freshStore();
    await store.putSettings(CUSTOM);
    await expect(store.putSettings({ ...CUSTOM, chatSites: ['localhost:3000'] })).rejects.toMatchObject({ code: 'invalid-input' });
    const { chatSites: _dropped, ...partial } = CUSTOM;
    await expect(store.putSettings(partial as Settings)).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.getSettings()).toEqual(CUSTOM);
  });

  it('a record stored before the desktop fields existed reads with the desktop mirror off, no agents and no confirmations', async () => {
    const { store, factory, name, errors } = await freshStore();
    const { desktopMirror: _a, desktopAgents: _b, desktopConfirmed: _c, ...old } = CUSTOM;
    await plant(factory, name, 'settings', old, SETTINGS_KEY);
    expect(await store.getSettings()).toEqual({ ...CUSTOM, desktopMirror: false, desktopAgents: [], desktopConfirmed: [] });
    expect(errors).toEqual([]);
  });

  it('desktop agents and confirmations that are not what the definition says take their defaults, field by field', async () => {
    const good = CUSTOM.desktopConfirmed[0];
    for (const [field, bad] of [
      ['desktopMirror', 'yes'],
      ['desktopAgents', ['vim']],
      ['desktopAgents', ['claude-code', 'claude-code']],
      ['desktopAgents', 'claude-code'],
      ['desktopConfirmed', [{ ...good, agent: 'vim' }]],
      ['desktopConfirmed', [{ ...good, revision: 'A'.repeat(64) }]],
      ['desktopConfirmed', [{ ...good, origin: 'https://docs.example.com/path' }]],
      ['desktopConfirmed', [{ ...good, extra: 1 }]],
      ['desktopConfirmed', Array.from({ length: 4097 }, () => good)],
    ] as const) {
      const { store, factory, name, errors } = await freshStore();
      await plant(factory, name, 'settings', { ...CUSTOM, [field]: bad }, SETTINGS_KEY);
      expect(await store.getSettings(), `${field} ${JSON.stringify(bad).slice(0, 60)}`).toEqual({ ...CUSTOM, [field]: DEFAULT_SETTINGS[field] });
      expect(errors[0]?.message).toContain(field);
    }
  });
});
