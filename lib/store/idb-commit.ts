// One probe's writes in one readwrite transaction (one transaction per probe): the pin
// on first sight (or its lastSeen, or an offered key in the history), the verified bytes with their
// byte budgets and totals, the probe cache with its bound, and the report with the bound on reports.
// Each part is the same code the single writes run (idb-pins, idb-skills, idb-cache, idb-reports),
// here inside one transaction: it commits whole or not at all.
import { withTotals, type TotalsTx } from './byte-totals';
import { StoreError } from './errors';
import type { ReportsTx, SkillsTx } from './evict';
import { putCacheInTx, checkedCacheBatch } from './idb-cache';
import type { StoreCore } from './idb-core';
import { pinInTx } from './idb-pins';
import { checkedReport, putReportInTx } from './idb-reports';
import { checkedSkillBatch, putSkillsInTx } from './idb-skills';
import type { CommitResult, ProbeCommit } from './store-api';
import { checkPinArgs } from './trust-rules';

const STORES = ['pins', 'keys', 'approvals', 'skills', 'totals', 'cache', 'reports'] as const;

export async function commitProbe(core: StoreCore, c: ProbeCommit): Promise<CommitResult> {
  // Every record is checked before the transaction: a malformed one writes nothing.
  const skills = checkedSkillBatch(c.skills);
  const cache = checkedCacheBatch(c.cache);
  const report = c.report ? checkedReport(c.report) : null;
  if (report && report.origin !== c.origin) throw new StoreError('invalid-input', 'the report is not about the origin committed; nothing was written');
  if (c.pin) checkPinArgs(c.origin, c.pin.key, c.pin.fingerprint, c.pin.now);
  return core.write([...STORES], async (tx) => {
    const pin = c.pin ? await pinInTx(core, tx.objectStore('pins'), tx.objectStore('keys'), c.origin, c.pin.key, c.pin.fingerprint, c.pin.now) : null;
    const reportWritten = report !== null && (c.pin === undefined || pin?.result === c.pin.expect);
    await withTotals(tx as unknown as TotalsTx, async (totals) => {
      if (skills.batch.length > 0) await putSkillsInTx(core, tx as unknown as SkillsTx, skills, totals);
      if (cache.length > 0) await putCacheInTx(core, tx.objectStore('cache'), cache);
      if (report && reportWritten) await putReportInTx(core, tx as unknown as ReportsTx, report, totals);
    });
    return { pin, reportWritten };
  });
}
