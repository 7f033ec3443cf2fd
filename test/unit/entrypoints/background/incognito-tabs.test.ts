// Private-tab knowledge for the navigation path: no tabs.get per navigation once a tab is
// known, and a private tab is never reported as a normal one.
import { describe, expect, it } from 'vitest';
import { createIncognitoTabs, type IncognitoTabsApi, type TabIncognito } from '../../../../entrypoints/background/incognito-tabs';

function fakeTabs(initial: TabIncognito[]) {
  const tabs = new Map<number, TabIncognito>();
  for (const t of initial) if (t.id !== undefined) tabs.set(t.id, t);
  const calls = { query: 0, get: [] as number[] };
  let releaseQuery: (() => void) | null = null;
  let holdQuery = false;
  let failQuery = false;
  const api: IncognitoTabsApi = {
    query: async () => {
      calls.query++;
      const snapshot = [...tabs.values()];
      if (holdQuery) await new Promise<void>((r) => (releaseQuery = r));
      if (failQuery) throw new Error('tabs unavailable');
      return snapshot;
    },
    get: async (id) => {
      calls.get.push(id);
      const t = tabs.get(id);
      if (!t) throw new Error(`No tab with id: ${id}.`);
      return t;
    },
  };
  return {
    api,
    calls,
    tabs,
    hold: () => (holdQuery = true),
    release: () => releaseQuery?.(),
    failQueries: () => (failQuery = true),
  };
}

describe('incognito tabs', () => {
  it('knows every open tab after the start-up query: navigations need no tabs.get', async () => {
    const f = fakeTabs([{ id: 1, incognito: false }, { id: 2, incognito: true }, { incognito: true }]);
    const known = createIncognitoTabs(f.api);
    await known.seed();
    await known.seed();
    expect(f.calls.query).toBe(1);
    expect(await known.isIncognito(1)).toBe(false);
    expect(await known.isIncognito(2)).toBe(true);
    expect(f.calls.get).toEqual([]);
    expect(known.size()).toBe(2);
  });

  it('learns new tabs from onCreated and forgets closed ones', async () => {
    const f = fakeTabs([]);
    const known = createIncognitoTabs(f.api);
    await known.seed();
    known.onCreated({ id: 7, incognito: true });
    known.onCreated({ id: 8, incognito: false });
    known.onCreated({ incognito: true });
    expect(await known.isIncognito(7)).toBe(true);
    expect(await known.isIncognito(8)).toBe(false);
    known.onRemoved(7);
    expect(known.size()).toBe(1);
    expect(f.calls.get).toEqual([]);
  });

  it('a replaced tab (prerender, discard) keeps its flag under the new id', async () => {
    const f = fakeTabs([{ id: 3, incognito: true }]);
    const known = createIncognitoTabs(f.api);
    await known.seed();
    known.onReplaced(30, 3);
    expect(await known.isIncognito(30)).toBe(true);
    expect(known.size()).toBe(1);
    expect(f.calls.get).toEqual([]);
  });

  it('an unknown tab is looked up once with tabs.get, then remembered', async () => {
    const f = fakeTabs([]);
    const known = createIncognitoTabs(f.api);
    await known.seed();
    f.tabs.set(9, { id: 9, incognito: true });
    expect(await known.isIncognito(9)).toBe(true);
    expect(await known.isIncognito(9)).toBe(true);
    expect(f.calls.get).toEqual([9]);
  });

  it('a navigation before the start-up query answers waits for it rather than guessing', async () => {
    const f = fakeTabs([{ id: 4, incognito: true }]);
    f.hold();
    const known = createIncognitoTabs(f.api);
    void known.seed();
    const answer = known.isIncognito(4);
    f.release();
    expect(await answer).toBe(true);
    expect(f.calls.get).toEqual([]);
  });

  it('a tab closed while the start-up query was in flight is not brought back by its answer', async () => {
    const f = fakeTabs([
      { id: 5, incognito: false },
      { id: 6, incognito: true },
    ]);
    f.hold();
    const known = createIncognitoTabs(f.api);
    const seeding = known.seed();
    known.onRemoved(5);
    known.onReplaced(60, 6);
    f.release();
    await seeding;
    expect(known.size()).toBe(0);
    f.tabs.delete(5);
    await expect(known.isIncognito(5)).rejects.toThrow('No tab');
  });

  it('without the start-up query (it failed) every tab is still answered, through tabs.get', async () => {
    const f = fakeTabs([
      { id: 1, incognito: true },
      { id: 2, incognito: false },
    ]);
    f.failQueries();
    const known = createIncognitoTabs(f.api);
    expect(await known.isIncognito(1)).toBe(true);
    expect(await known.isIncognito(2)).toBe(false);
    expect(f.calls.get).toEqual([1, 2]);
  });

  it('a tab the browser does not know (closed, or not a tab) rejects, so nothing is probed for it', async () => {
    const f = fakeTabs([]);
    const known = createIncognitoTabs(f.api);
    await expect(known.isIncognito(-1)).rejects.toThrow('No tab');
    await expect(known.isIncognito(42)).rejects.toThrow('No tab');
  });

  it('a tab object without a boolean incognito flag is taken as a normal tab, as the flag was read before', async () => {
    const f = fakeTabs([{ id: 1, incognito: undefined as unknown as boolean }]);
    const known = createIncognitoTabs(f.api);
    await known.seed();
    expect(await known.isIncognito(1)).toBe(false);
  });
});
