// The download budget of one probe: every artifact body of the probe draws from it, so
// one visit downloads at most LIMITS.probeDownload bytes of artifacts, whatever the site lists (64
// archives of 16 MiB would be 1 GiB). A body that declares its length reserves it whole before its
// first byte is read, so bodies downloading side by side are admitted in full or refused at once;
// one of unknown length takes from the budget as it streams. An artifact the budget has no room
// for is `fetch-failed` (`probe-budget`) unless verified bytes of it are stored; nothing stored is
// touched, and a later probe fetches it (the artifacts stored by now are not downloaded again).

export type DownloadBudget = ReturnType<typeof downloadBudget>;

export function downloadBudget(limit: number) {
  let used = 0;
  let refused = 0;
  // A reservation and a streamed take draw from the budget alike.
  const draw = (bytes: number): boolean => {
    if (!(Number.isFinite(bytes) && bytes >= 0 && used + bytes <= limit)) return false;
    used += bytes;
    return true;
  };
  return {
    limit,
    reserve: draw,
    take: draw,
    release(bytes: number): void {
      used = Math.max(0, used - Math.max(0, bytes));
    },
    /** Bytes reserved or taken so far. */
    used: (): number => used,
    /** Whether nothing more fits (a download is not even started). */
    exhausted: (): boolean => used >= limit,
    /** Notes an artifact the budget had no room for; how many there were. */
    refuse: (): number => ++refused,
    refused: (): number => refused,
  };
}

function mib(n: number): string {
  return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
}

/** The message of a skill the budget had no room for. */
export function budgetMessage(budget: Pick<DownloadBudget, 'limit'>): string {
  return `The ${mib(budget.limit)} this probe may download for artifacts are used up by the site's other artifacts; this one is fetched on a later probe.`;
}

/** The origin-level note, when some artifacts were left for a later probe. */
export function budgetSummary(budget: Pick<DownloadBudget, 'limit' | 'refused'>): string {
  return `The artifacts of this site reached the ${mib(budget.limit)} download budget of one probe; ${budget.refused()} ${budget.refused() === 1 ? 'was' : 'were'} left for a later probe.`;
}
