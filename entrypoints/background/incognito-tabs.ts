// Which tabs are private (incognito), known without asking the browser on every navigation.
// The extension runs in spanning mode (one background for normal and private windows), and
// webNavigation events do not say whether their tab is private. A tab never moves between a
// private and a normal window, so its flag is learnt once: from one tabs.query at start-up,
// then from tabs.onCreated / onReplaced, and forgotten on onRemoved. A tab still unknown
// (the start-up query failed, or an event came before it) is looked up with tabs.get.

export interface TabIncognito {
  id?: number;
  incognito: boolean;
}

export interface IncognitoTabsApi {
  query(queryInfo: Record<string, never>): Promise<TabIncognito[]>;
  get(tabId: number): Promise<TabIncognito>;
}

export interface IncognitoTabs {
  /** Starts the one start-up query (once; later calls do nothing). */
  seed(): Promise<void>;
  onCreated(tab: TabIncognito): void;
  onRemoved(tabId: number): void;
  onReplaced(addedTabId: number, removedTabId: number): void;
  /** Whether the tab is private; rejects only when the browser has no such tab. */
  isIncognito(tabId: number): Promise<boolean>;
  /** Tabs whose flag is known (for tests and diagnostics). */
  size(): number;
}

export function createIncognitoTabs(api: IncognitoTabsApi): IncognitoTabs {
  const known = new Map<number, boolean>();
  // Tabs closed while the start-up query was in flight: its answer must not bring them back.
  const closedWhileSeeding = new Set<number>();
  let seeding: Promise<void> | null = null;
  let seeded = false;

  function seed(): Promise<void> {
    seeding ??= api
      .query({})
      .then((tabs) => {
        for (const tab of tabs) {
          if (typeof tab.id !== 'number' || known.has(tab.id) || closedWhileSeeding.has(tab.id)) continue;
          known.set(tab.id, tab.incognito === true);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        seeded = true;
        closedWhileSeeding.clear();
      });
    return seeding;
  }

  return {
    seed,
    onCreated(tab) {
      if (typeof tab.id === 'number') known.set(tab.id, tab.incognito === true);
    },
    onRemoved(tabId) {
      known.delete(tabId);
      if (seeding && !seeded) closedWhileSeeding.add(tabId);
    },
    onReplaced(addedTabId, removedTabId) {
      const flag = known.get(removedTabId);
      known.delete(removedTabId);
      if (flag !== undefined) known.set(addedTabId, flag);
      if (seeding && !seeded) closedWhileSeeding.add(removedTabId);
    },
    async isIncognito(tabId) {
      const flag = known.get(tabId);
      if (flag !== undefined) return flag;
      await seed();
      const seededFlag = known.get(tabId);
      if (seededFlag !== undefined) return seededFlag;
      const tab = await api.get(tabId);
      const incognito = tab.incognito === true;
      known.set(tabId, incognito);
      return incognito;
    },
    size: () => known.size,
  };
}
