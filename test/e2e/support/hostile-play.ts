// Plays one hostile site through the built extension: serves it on a loopback origin the
// browser has not seen before, opens a tab there (the probe starts on navigation), plays each
// stage (approving where the stage says, as the popup would; later stages are re-checked with
// a forced probe), and judges the last report with the same projection as the node runner.
import type { Page } from '@playwright/test';
import type { ActionResult } from '../../../lib/messages';
import { badgeFor } from '../../../lib/background/badge';
import { isApprovable, type OriginReport } from '../../../lib/types';
import { expectedProjection, observe, projectionText, sameProjection, skillKey, type Projection } from '../../hostile/outcome';
import { startHostileServer } from '../../hostile/server';
import type { BrowserCheck, Expected, HostileCase, HostileSite, ServedSite } from '../../hostile/types';
import { badgeText, send, tabIdOf, waitForReport } from './extension';
import { extensionStore, trustSnapshot, type HostileSession } from './hostile-session';

/** Origins served so far in this browser: a port the OS hands out again is refused. */
const usedOrigins = new Set<string>();

export async function serveFresh(site: HostileSite): Promise<ServedSite> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const served = await startHostileServer(site);
    if (!usedOrigins.has(served.origin)) {
      usedOrigins.add(served.origin);
      return served;
    }
    await served.close();
  }
  throw new Error('no unused loopback port after 20 attempts');
}

export interface PlayedCase {
  served: ServedSite;
  origin: string;
  /** The tab showing the case's page. */
  page: Page;
  tabId: number;
  reports: OriginReport[];
  report: OriginReport;
  elapsedMs: number;
  /** Trust state before the tab opened the case's origin. */
  before: Awaited<ReturnType<typeof trustSnapshot>>;
  /** Setup problems and invariant violations found while playing. */
  problems: string[];
}

const PROBE_BUDGET_MS = 20_000;

/** Approves a skill of `report` (by case key) from an extension page, as the popup does after the user's confirmations. */
export async function approveByKey(s: HostileSession, report: OriginReport, key: string): Promise<string | null> {
  const skill = report.skills.find((x) => skillKey(x) === key);
  if (!skill?.url || !skill.actual) return `setup: no approvable skill ${key}`;
  const r = await send<ActionResult>(s.extPage, {
    type: 'skillpin:approve',
    origin: report.origin,
    url: skill.url,
    digestLf: skill.actual.lf,
    // An archive is approved with the file set shown, as the popup sends it.
    ...(skill.archive?.filesDigest ? { filesDigest: skill.archive.filesDigest } : {}),
    confirmUnverified: true,
    confirmCrossOrigin: true,
  });
  return r.ok ? null : `setup: approving ${key} failed (${r.error ?? '?'}: ${r.message ?? ''})`;
}

export async function playSite(s: HostileSession, c: HostileCase): Promise<PlayedCase> {
  if (!c.site) throw new Error(`${c.id} has no site`);
  const site = await c.site();
  const served = await serveFresh(site);
  const origin = served.origin;
  const problems: string[] = [];
  const before = await trustSnapshot(s);
  const page = await s.context.newPage();
  const reports: OriginReport[] = [];
  try {
    await page.goto(origin + (c.browser?.page ?? '/'), { waitUntil: 'domcontentloaded' });
    const budget = (c.slowMs ?? PROBE_BUDGET_MS) + 2000;
    for (let i = 0; i < site.stages.length; i++) {
      served.setStage(i);
      const report = i === 0 ? await waitForReport<OriginReport>(s.extPage, origin, budget) : await send<OriginReport>(s.extPage, { type: 'skillpin:probe', origin });
      reports.push(report);
      for (const key of site.stages[i]?.approveAfter ?? []) {
        const p = await approveByKey(s, report, key);
        if (p) problems.push(`stage ${i}: ${p}`);
      }
    }
  } catch (e) {
    problems.push(`playing the site: ${e instanceof Error ? e.message : String(e)}`);
  }
  // The judged report is the stored one (approvals after the last stage are part of it).
  const last = (await send<OriginReport | null>(s.extPage, { type: 'skillpin:report', origin })) ?? reports[reports.length - 1];
  if (!last) throw new Error(`no report for ${origin}: ${problems.join('; ')}`);
  if (reports.length > 0) reports[reports.length - 1] = last;
  const tabId = await tabIdOf(s.sw, page);
  const elapsedMs = last.startedAt !== null && last.finishedAt !== null ? last.finishedAt - last.startedAt : Number.POSITIVE_INFINITY;
  return { served, origin, page, tabId, reports, report: last, elapsedMs, before, problems };
}

/** The case's expectation, with the browser's status override when the catalogue gives one. */
export function browserExpected(c: HostileCase): Expected {
  const statuses: BrowserCheck['statuses'] = c.browser?.statuses;
  return statuses === undefined ? c.expected : { ...c.expected, skillStatuses: statuses };
}

export interface Judgement {
  expected: string;
  observed: string;
  pass: boolean;
  projection: Projection;
  problems: string[];
}

/** The observed outcome in the node runner's words, plus the invariants every report keeps. */
export async function judge(s: HostileSession, c: HostileCase, p: PlayedCase): Promise<Judgement> {
  const e = browserExpected(c);
  const want = expectedProjection(e);
  const got = await observe(e, { report: p.report, reports: p.reports, store: extensionStore(s), log: p.served.log, origin: p.origin, elapsedMs: p.elapsedMs });
  const problems: string[] = [];
  for (const [i, r] of p.reports.entries()) {
    if (r.state !== 'done' && r.state !== 'error') problems.push(`stage ${i}: report state is ${r.state}`);
    for (const sk of r.skills) {
      if (sk.approval.state !== 'approved') continue;
      if (!isApprovable(sk.status)) problems.push(`stage ${i}: ${skillKey(sk)} approved while ${sk.status}`);
      if (sk.actual && sk.approval.approval && sk.approval.approval.digestLf !== sk.actual.lf) problems.push(`stage ${i}: ${skillKey(sk)} approved for other bytes`);
    }
  }
  return {
    expected: projectionText(want, e.custom?.text),
    observed: projectionText(got, e.custom?.text),
    pass: sameProjection(got, want),
    projection: got,
    problems,
  };
}

const BADGE_CLASS: Record<NonNullable<BrowserCheck['badge']>, RegExp> = {
  none: /^$/,
  count: /^(?:[1-9]\d?|99\+)$/,
  warning: /^!$/,
};

/** The tab's badge: what the report implies, and the catalogue's class when it names one. */
export async function checkBadge(s: HostileSession, c: HostileCase, p: PlayedCase): Promise<{ fact: string; problems: string[] }> {
  const want = badgeFor(p.report).text;
  let text = await badgeText(s.sw, p.tabId);
  const deadline = Date.now() + 4000;
  while (text !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    text = await badgeText(s.sw, p.tabId);
  }
  const problems: string[] = [];
  if (text !== want) problems.push(`badge "${text}", the report implies "${want}"`);
  const cls = c.browser?.badge;
  if (cls && !BADGE_CLASS[cls].test(text)) problems.push(`badge "${text}" is not ${cls}`);
  return { fact: `badge "${text}"`, problems };
}

/** Trap URLs the site saw, as a problem. */
export function trapProblem(p: PlayedCase, label = 'beacon'): string | null {
  const hits = p.served.trapHits();
  return hits.length > 0 ? `${label} reached: ${[...new Set(hits.map((h) => h.path))].join(', ')}` : null;
}
