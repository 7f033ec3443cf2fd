// The review's share of a probe (PRODUCT.md §6.1, lib/review/): over the same generated origin,
// rounds of the whole probe (fresh store) and of reviewing every SKILL.md that probe verified,
// interleaved in one run. The probe keeps reviews in memory by content (lib/probe/skill-review.ts),
// so after the first round it reviews nothing again: the share compares a full review of the
// files with a probe, an upper bound of what a first visit spends on it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { reviewSkill } from '../../../lib/review';
import { defaultSettings } from '../../../lib/store/settings';
import { diskFetch, freshStore, realClock } from './engine';
import { fmt, interleave, summarize } from './stats';
import type { TargetCheck } from './results';

/** The goal: reviewing a skill's files is at most this share of probing it. */
export const REVIEW_SHARE = 0.1;

function skillFiles(dir: string, out: Uint8Array[] = []): Uint8Array[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) skillFiles(full, out);
    else if (name === 'SKILL.md') out.push(new Uint8Array(readFileSync(full)));
  }
  return out;
}

/** Rows and the target of the review share, for a site written to `dir` with `total` skills. */
export async function reviewShare(dir: string, total: number, rounds: number, repro: string): Promise<{ rows: (string | number)[][]; targets: TargetCheck[]; raw: Record<string, unknown> }> {
  const { fetch } = diskFetch({ 'review.localhost': dir });
  const files = skillFiles(dir);
  if (files.length !== total) throw new Error(`found ${files.length} SKILL.md files, expected ${total}`);
  const probe = async (): Promise<number> => {
    const { store } = await freshStore();
    const t0 = performance.now();
    await probeOrigin('http://review.localhost', { fetch, store, clock: realClock, settings: defaultSettings() });
    const ms = performance.now() - t0;
    store.close();
    return ms;
  };
  const review = async (): Promise<number> => {
    const t0 = performance.now();
    for (const bytes of files) reviewSkill([{ path: 'SKILL.md', bytes }]);
    return performance.now() - t0;
  };
  await probe();
  await review();
  const [p, r] = await interleave(rounds, [probe, review]);
  const a = summarize(p as number[]);
  const b = summarize(r as number[]);
  const share = b.median / a.median;
  const site = `${total} skills (1 origin)`;
  return {
    rows: [
      [
        site,
        'review share of a probe: reviewSkill over every SKILL.md the probe verified, beside the whole probe (fresh store)',
        `${fmt(b.median)} ms of ${fmt(a.median)} ms`,
        `${fmt(b.p25)}–${fmt(b.p75)} ms`,
        `${fmt((b.median / total) * 1000, 0)} µs`,
        b.n,
        repro,
      ],
    ],
    targets: [
      {
        what: `engine under node, ${total} skills: the review (lib/review/) of every SKILL.md as a share of the probe`,
        target: `≤ ${REVIEW_SHARE * 100} %`,
        measured: `${fmt(share * 100, 1)} % (${fmt(b.median)} of ${fmt(a.median)} ms)`,
        met: share <= REVIEW_SHARE,
      },
    ],
    raw: { probe: p, review: r },
  };
}
