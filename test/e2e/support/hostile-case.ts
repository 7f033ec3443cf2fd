// One hostile case through the built extension in Chromium: play the site, judge the report
// with the node runner's projection, then the category's browser checks. Never throws: a
// runner error is a problem of the case.
import type { HostileCase } from '../../hostile/types';
import { approvedElsewhere, messagingChecks, type OtherOrigin } from './hostile-page-cases';
import { expectedProjection, projectionText } from '../../hostile/outcome';
import { browserExpected, judge, playSite, type PlayedCase } from './hostile-play';
import { renderChecks } from './hostile-render';
import type { HostileSession } from './hostile-session';
import { siteChecks } from './hostile-site-cases';
import type { ViewResult } from './hostile-views';

export interface BrowserOutcome {
  /** The node runner's expected outcome text. */
  expected: string;
  /** The same projection of what the extension reported. */
  observedOutcome: string;
  /** observedOutcome plus what the browser checks saw (for docs/reliability.md). */
  observed: string;
  pass: boolean;
  problems: string[];
}

export async function runBrowserCase(s: HostileSession, c: HostileCase): Promise<BrowserOutcome> {
  let played: PlayedCase | null = null;
  let other: OtherOrigin | null = null;
  const e = browserExpected(c);
  const out: BrowserOutcome = { expected: projectionText(expectedProjection(e), e.custom?.text), observedOutcome: 'no report', observed: 'no report', pass: false, problems: [] };
  try {
    if (!c.browser?.include) throw new Error('not in the browser subset');
    if (c.id === 'page-waits-in-a-composer') other = await approvedElsewhere(s, c);
    played = await playSite(s, c);
    const j = await judge(s, c, played);
    out.expected = j.expected;
    out.observedOutcome = j.observed;
    let checks: ViewResult;
    if (c.category === 'rendering') checks = await renderChecks(s, c, played);
    else if (c.category === 'messaging') checks = await messagingChecks(s, c, played, other);
    else checks = await siteChecks(s, c, played);
    out.problems.push(...played.problems, ...j.problems, ...checks.problems);
    out.observed = [j.observed, ...checks.facts].join('; ');
    out.pass = j.pass && out.problems.length === 0;
  } catch (e) {
    out.problems.push(`runner error: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 3).join(' ') : String(e)}`);
    out.pass = false;
  } finally {
    await played?.page.close().catch(() => undefined);
    await played?.served.close().catch(() => undefined);
    await other?.served.close().catch(() => undefined);
  }
  return out;
}
