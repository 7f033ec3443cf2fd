// The order in which session-rule changes reach the browser (lib/net/dnr-rules.ts): one
// updateSessionRules call at a time, in order, so a removal never overtakes the addition it undoes.
// The changes that arrive while one update is in flight go out together as the next one (one update
// costs milliseconds in Chromium, and a probe asks for many). Chrome applies an update's removals
// before its additions, so a change that removes an id added earlier in the waiting group starts a
// group of its own. A group the browser refuses is applied again one change at a time, so one bad
// change fails alone. With `removalDelayMs`, a group of removals only (no request waits for it)
// waits that long for an addition or more removals to go with it, so that the addition a request
// waits for is not queued behind an update of its own.
/** The part of chrome.declarativeNetRequest.Rule these rules use. */
export interface SessionRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: {
    regexFilter?: string;
    urlFilter?: string;
    tabIds?: number[];
    initiatorDomains?: string[];
    isUrlFilterCaseSensitive?: boolean;
  };
}

export interface RuleChange {
  addRules?: SessionRule[];
  removeRuleIds?: number[];
}

interface Job {
  change: RuleChange;
  settle(error: unknown, failed: boolean): void;
}

const adds = (jobs: readonly Job[]): boolean => jobs.some((j) => (j.change.addRules ?? []).length > 0);

/** Changes in order as one update: every removal, then every addition. */
export function mergeChanges(changes: readonly RuleChange[]): RuleChange {
  const removeRuleIds = changes.flatMap((c) => c.removeRuleIds ?? []);
  const addRules = changes.flatMap((c) => c.addRules ?? []);
  return { ...(removeRuleIds.length > 0 ? { removeRuleIds } : {}), ...(addRules.length > 0 ? { addRules } : {}) };
}

/** Applies one group: as one update, or change by change when the browser refuses the group. */
async function applyGroup(update: (change: RuleChange) => Promise<void>, jobs: readonly Job[]): Promise<void> {
  const [only] = jobs.length === 1 ? jobs : [];
  try {
    await update(only ? only.change : mergeChanges(jobs.map((j) => j.change)));
    for (const j of jobs) j.settle(undefined, false);
  } catch (err) {
    if (only) {
      only.settle(err, true);
      return;
    }
    for (const j of jobs) {
      try {
        await update(j.change);
        j.settle(undefined, false);
      } catch (one) {
        j.settle(one, true);
      }
    }
  }
}

/** Returns `run`: the change is applied (its promise resolves) or refused (rejects). */
export function createRuleQueue(update: (change: RuleChange) => Promise<void>, opts: { removalDelayMs?: number } = {}): (change: RuleChange) => Promise<void> {
  const groups: Job[][] = [];
  let busy = false;
  /** Ends a removal group's wait early: an addition joined it. */
  let joined: (() => void) | null = null;

  const waitForCompany = (delay: number): Promise<void> =>
    new Promise<void>((go) => {
      const timer = setTimeout(go, delay);
      joined = () => {
        clearTimeout(timer);
        go();
      };
    });

  const flush = async (): Promise<void> => {
    for (let head = groups[0]; head; head = groups[0]) {
      const delay = opts.removalDelayMs ?? 0;
      if (delay > 0 && !adds(head)) {
        await waitForCompany(delay);
        joined = null;
      }
      await applyGroup(update, groups.shift() as Job[]);
    }
    busy = false;
  };

  return (change) =>
    new Promise<void>((resolve, reject) => {
      const job: Job = { change, settle: (error, failed) => (failed ? reject(error) : resolve()) };
      const last = groups.at(-1);
      const added = new Set((last ?? []).flatMap((j) => (j.change.addRules ?? []).map((r) => r.id)));
      if (last && !(change.removeRuleIds ?? []).some((id) => added.has(id))) last.push(job);
      else groups.push([job]);
      if ((change.addRules ?? []).length > 0) joined?.();
      if (!busy) {
        busy = true;
        queueMicrotask(() => void flush());
      }
    });
}
