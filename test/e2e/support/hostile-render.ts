// Rendering cases: the payload skill is shown in every extension view that carries publisher
// text (popup list, details view rendered and raw, options diagnostics JSON), poked at, and
// then nothing may have run (the sentinel global stays undefined in every extension context)
// and nothing may have been fetched (no beacon request reached the case's server, no outbound
// request from an extension page got an answer). CSP violations are recorded as evidence.
import type { HostileCase } from '../../hostile/types';
import { checkBadge, trapProblem, type PlayedCase } from './hostile-play';
import type { HostileSession } from './hostile-session';
import {
  backToList,
  cardOf,
  checkCards,
  checkDiagnostics,
  checkLinks,
  checkRaw,
  checkRendered,
  checkVisibleText,
  interactWithRendered,
  merge,
  openDetails,
  openPopup,
  type ViewResult,
} from './hostile-views';
import { watchSummary, type PageWatch } from './hostile-watch';

/**
 * A view that has not rendered after this long is hung (render-nesting-dos, a message flood, an
 * alias bomb): a check that it does not freeze, not a speed claim (speed is measured side by side in
 * `npm run bench`; a tighter bound here failed on a loaded machine).
 */
export const RENDER_BUDGET_MS = 15_000;

async function sentinelProblems(label: string, read: () => Promise<unknown>): Promise<string[]> {
  try {
    const v = await read();
    return v === undefined ? [] : [`${label}: sentinel set to ${JSON.stringify(v)}`];
  } catch (e) {
    return [`${label}: sentinel unreadable (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`];
  }
}

/** Case-specific checks of the details view, from the catalogue's assertion text. */
async function detailsExtras(c: HostileCase, popup: PageWatch): Promise<ViewResult> {
  const problems: string[] = [];
  if (c.id === 'render-html-comment-instructions') {
    const flag = await popup.page.locator('article.details [data-flag="html-comment"]').count();
    if (flag === 0) problems.push('no html-comment advisory flag in the details view');
  }
  return { facts: [], problems };
}

export async function renderChecks(s: HostileSession, c: HostileCase, p: PlayedCase): Promise<ViewResult> {
  const sentinel = c.browser?.sentinel ?? null;
  const skill = p.report.skills[0];
  if (!skill) return { facts: [], problems: ['no skill to render'] };
  const parts: ViewResult[] = [];
  const opened = await openPopup(s, p.report);
  const popup = opened.popup;
  let options: PageWatch | null = null;
  try {
    parts.push({ facts: [], problems: opened.problems });
    parts.push(await checkCards(popup, p.report));
    // A real hover over the name and description, where handlers in markup would fire.
    await cardOf(popup, skill)
      .locator('.card-title')
      .hover({ timeout: 2000 })
      .catch(() => undefined);
    await cardOf(popup, skill)
      .locator('.card-desc')
      .hover({ timeout: 2000 })
      .catch(() => undefined);
    const details = await openDetails(popup, skill);
    const inBudget = details.ms <= RENDER_BUDGET_MS;
    parts.push({ facts: inBudget ? ['details view rendered (no hang)'] : [], problems: details.problems });
    if (!inBudget) parts.push({ facts: [], problems: [`the details view took ${details.ms} ms (budget ${RENDER_BUDGET_MS} ms)`] });
    const heading = await popup.page
      .locator('#details-title')
      .evaluate((el) => ({ children: el.children.length, text: el.textContent ?? '' }), undefined, { timeout: 2000 })
      .catch(() => null);
    if (!heading || heading.children !== 0 || heading.text !== skill.name) parts.push({ facts: [], problems: [`the details heading does not show the name as text (${JSON.stringify(heading)})`] });
    const rendered = await checkRendered(popup);
    parts.push(rendered);
    if (!rendered.present) parts.push({ facts: [], problems: ['the SKILL.md was not rendered'] });
    await interactWithRendered(popup);
    const responsive = await Promise.race([popup.page.evaluate(() => 1 + 1), new Promise((r) => setTimeout(() => r('timeout'), RENDER_BUDGET_MS))]);
    if (responsive !== 2) parts.push({ facts: [], problems: ['the popup stopped responding after rendering'] });
    parts.push(await checkVisibleText(popup, c.browser?.visibleText ?? [], 'article.details', 'details view'));
    parts.push(await detailsExtras(c, popup));
    parts.push(await checkLinks(popup, 'details view'));
    parts.push(await checkRaw(popup, '# '));
    await backToList(popup).catch(() => undefined);
    parts.push(await checkLinks(popup, 'popup list'));
    const diag = await checkDiagnostics(s, p.report, [skill.name]);
    options = diag.watch;
    parts.push(diag);
    // Give anything that was scheduled (timers, image loads, refreshes) time to happen.
    await popup.page.waitForTimeout(400);
    if (sentinel) {
      parts.push({ facts: [], problems: await sentinelProblems('popup', () => popup.global(sentinel)) });
      parts.push({ facts: [], problems: await sentinelProblems('options', () => (options as PageWatch).global(sentinel)) });
      parts.push({ facts: [], problems: await sentinelProblems('service worker', () => s.sw.evaluate((n) => (globalThis as unknown as Record<string, unknown>)[n], sentinel)) });
      parts.push({ facts: [], problems: await sentinelProblems('case page', () => p.page.evaluate((n) => (window as unknown as Record<string, unknown>)[n], sentinel)) });
    }
    parts.push(await watchSummary(popup, 'popup'));
    parts.push(await watchSummary(options, 'options'));
    const beacon = trapProblem(p);
    const armed = (c.browser?.beacons ?? []).length;
    parts.push({ facts: [beacon ? `${armed} beacon(s) armed` : `${armed} beacon(s) armed, none reached`], problems: beacon ? [beacon] : [] });
    const badge = await checkBadge(s, c, p);
    parts.push({ facts: [badge.fact], problems: badge.problems });
    if (c.id === 'render-markup-in-names') {
      const title = await s.sw.evaluate((tabId) => chrome.action.getTitle({ tabId }), p.tabId);
      parts.push({ facts: [`badge tooltip ${JSON.stringify(title)}`], problems: [] });
    }
  } finally {
    await popup.page.close().catch(() => undefined);
    await options?.page.close().catch(() => undefined);
  }
  return merge(...parts);
}
