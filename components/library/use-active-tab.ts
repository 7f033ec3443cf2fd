// The tab the library acts on, followed as the user switches tabs or the tab navigates.
import { useEffect, useState } from 'preact/hooks';
import type { ActiveTab, LibraryEnv } from './env';

/** Undefined while it is first looked up. */
export function useActiveTab(env: LibraryEnv): ActiveTab | null | undefined {
  const [tab, setTab] = useState<ActiveTab | null | undefined>(undefined);
  useEffect(() => {
    let seq = 0;
    const look = () => {
      const n = ++seq;
      env.activeTab().then(
        (found) => n === seq && setTab(found),
        () => n === seq && setTab(null),
      );
    };
    look();
    const stop = env.watchTabs?.(look);
    return () => {
      seq = -1;
      stop?.();
    };
  }, [env]);
  return tab;
}
