// Messaging cases: the hostile page runs in a tab; the extension's trust state must not move,
// every privileged message path is refused, and where the catalogue says so the user's own
// explicit insertion still puts exactly one skill-context block into a composer.
import { RENDER_BUDGET_MS } from './hostile-render';
import type { ContextResult, InsertResult } from '../../../lib/messages';
import type { OriginReport, Settings } from '../../../lib/types';
import { insertItemId } from '../../../lib/background/menus';
import { CONTEXT_TITLE } from '../../../lib/skill-context/block';
import type { HostileCase, ServedSite } from '../../hostile/types';
import { waitForReport, send } from './extension';
import { clickMenuItem } from './listeners';
import { sweepFromContentScript, sweepFromPage } from './hostile-messaging';
import { approveByKey, checkBadge, serveFresh, trapProblem, type PlayedCase } from './hostile-play';
import { trustSnapshot, type HostileSession } from './hostile-session';
import { merge, openPopup, type ViewResult } from './hostile-views';

/** A publisher on another origin whose skill the user approved before visiting the hostile page. */
export interface OtherOrigin {
  served: ServedSite;
  report: OriginReport;
  url: string;
}

export async function approvedElsewhere(s: HostileSession, c: HostileCase): Promise<OtherOrigin> {
  if (!c.site) throw new Error(`${c.id} has no site`);
  const served = await serveFresh(await c.site());
  const page = await s.context.newPage();
  try {
    await page.goto(served.origin + '/skills/bait/SKILL.md');
    const report = await waitForReport<OriginReport>(s.extPage, served.origin);
    const problem = await approveByKey(s, report, 'bait');
    if (problem) throw new Error(problem);
    const url = report.skills[0]?.url;
    if (!url) throw new Error('the other origin lists no skill');
    return { served, report, url };
  } finally {
    await page.close();
  }
}

function unchangedProblems(c: HostileCase, before: Awaited<ReturnType<typeof trustSnapshot>>, after: Awaited<ReturnType<typeof trustSnapshot>>, when: string): string[] {
  const problems: string[] = [];
  const watched = new Set(c.browser?.unchanged ?? []);
  if (watched.has('approvals') && after.approvals !== before.approvals) problems.push(`${when}: the approvals changed`);
  if (watched.has('pins') && after.pins !== before.pins) problems.push(`${when}: the pins changed`);
  if (after.settings !== before.settings) problems.push(`${when}: the settings changed`);
  return problems;
}

const TEST_COMPOSER = 'skillpin-test-composer';

/** Adds an empty textarea to the page (a composer to insert into). */
async function addComposer(p: PlayedCase): Promise<string> {
  await p.page.evaluate((id) => {
    const t = document.createElement('textarea');
    t.id = id;
    document.body.appendChild(t);
  }, TEST_COMPOSER);
  return `#${TEST_COMPOSER}`;
}

/**
 * The user's explicit insertion of an approved skill into the focused composer: the popup's
 * Insert (an extension-page message) or the context menu's "Insert skill context" item.
 */
async function insertExplicitly(
  s: HostileSession,
  p: PlayedCase,
  origin: string,
  url: string,
  selector: string,
  via: 'popup' | 'menu',
): Promise<{ value: string; context: string | null; problems: string[] }> {
  const problems: string[] = [];
  const ctx = await send<ContextResult>(s.extPage, { type: 'skillpin:skill-context', origin, url });
  if (!ctx.ok) return { value: '', context: null, problems: [`no context for the approved skill: ${ctx.error}`] };
  const composer = p.page.locator(selector).first();
  await composer.focus({ timeout: 5000 });
  // Insertion goes only into chat sites: the user lists the hostile page as one (Other chat sites).
  const settings = await send<Settings>(s.extPage, { type: 'skillpin:settings-get' });
  if (!settings.chatSites.includes(p.origin)) await send(s.extPage, { type: 'skillpin:settings-set', settings: { ...settings, chatSites: [...settings.chatSites, p.origin] } });
  if (via === 'popup') {
    const result = await send<InsertResult>(s.extPage, { type: 'skillpin:insert', tabId: p.tabId, chatOrigin: p.origin, origin, url });
    if (!result.ok) problems.push(`insertion failed: ${result.method} ${result.message}`);
  } else {
    // The right click in the focused composer (the top frame): the item shows only on chat sites.
    const item = insertItemId(origin, url);
    const menuDeadline = Date.now() + 5000;
    let shown = false;
    while (!shown && Date.now() < menuDeadline) {
      shown = await s.sw.evaluate(
        (id) =>
          chrome.contextMenus.update(id, {}).then(
            () => true,
            () => false,
          ),
        item,
      );
      if (!shown) await p.page.waitForTimeout(100);
    }
    if (shown) await clickMenuItem(s.sw, { menuItemId: item, tabId: p.tabId, frameId: 0, editable: true });
    else problems.push('the menu has no "Insert skill context" item for the approved skill');
  }
  let value = '';
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    value = await composer.inputValue({ timeout: 2000 });
    if (value !== '') break;
    await p.page.waitForTimeout(50);
  }
  if (value !== ctx.context) problems.push(`the composer holds ${value.length} chars, not exactly the ${ctx.context.length}-char context block`);
  return { value, context: ctx.context, problems };
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Exactly one block: one title, one BEGIN and one END with the block's own tag, not the forged one. */
function oneBlock(value: string): string[] {
  const problems: string[] = [];
  if (count(value, CONTEXT_TITLE) !== 1) problems.push(`${count(value, CONTEXT_TITLE)} context titles`);
  const begin = /<<<BEGIN SKILL\.md skillpin-([0-9a-f-]+)>>>/.exec(value);
  const tag = begin?.[1] ?? null;
  if (!tag) return [...problems, 'no BEGIN marker'];
  if (tag === '0000') problems.push('the block uses the forged tag');
  if (count(value, `<<<BEGIN SKILL.md skillpin-${tag}>>>`) !== 1 || count(value, `<<<END SKILL.md skillpin-${tag}>>>`) !== 1) problems.push(`the block's own markers are not unique (tag ${tag})`);
  if (!value.endsWith(`<<<END SKILL.md skillpin-${tag}>>>`)) problems.push('the block does not end with its own END marker');
  return problems;
}

export async function messagingChecks(s: HostileSession, c: HostileCase, p: PlayedCase, other: OtherOrigin | null): Promise<ViewResult> {
  const parts: ViewResult[] = [];
  // Let the page do its worst for a while.
  await p.page.waitForTimeout(1200);
  const afterPage = await trustSnapshot(s);
  parts.push({ facts: [], problems: unchangedProblems(c, p.before, afterPage, 'after the page ran') });
  parts.push(await sweepFromPage(s, p));
  parts.push(await sweepFromContentScript(s, p));
  await p.page.waitForTimeout(200);
  const afterSweep = await trustSnapshot(s);
  parts.push({ facts: [], problems: unchangedProblems(c, p.before, afterSweep, 'after the forged requests') });
  const bait = p.report.skills.find((x) => x.names.index === 'bait');
  const approvedBait = (await send<{ origin: string; url: string }[]>(s.extPage, { type: 'skillpin:approvals-list' })).some((a) => a.origin === p.origin);
  if (approvedBait) parts.push({ facts: [], problems: ['a skill of the hostile origin is approved'] });
  const beacon = trapProblem(p);
  const armed = (c.browser?.beacons ?? []).length;
  parts.push({ facts: armed > 0 ? [beacon ? `${armed} beacon(s) armed` : `${armed} beacon(s) armed, none reached`] : [], problems: beacon ? [beacon] : [] });
  const badge = await checkBadge(s, c, p);
  parts.push({ facts: [badge.fact], problems: badge.problems });

  switch (c.id) {
    case 'page-waits-in-a-composer': {
      const own = await p.page.evaluate(() => ({
        c: (document.getElementById('c') as HTMLTextAreaElement | null)?.value ?? null,
        e: document.getElementById('e')?.textContent ?? null,
      }));
      if (own.c !== '' || own.e !== '') parts.push({ facts: [], problems: [`the composers are not empty after the visit (${JSON.stringify(own).slice(0, 80)})`] });
      if (!other) {
        parts.push({ facts: [], problems: ['setup: no approved skill on another origin'] });
        break;
      }
      const inserted = await insertExplicitly(s, p, other.report.origin, other.url, '#c', 'menu');
      parts.push({ facts: ['nothing inserted on its own; the menu insert put exactly the context block in'], problems: [...inserted.problems, ...oneBlock(inserted.value)] });
      await p.page.waitForTimeout(200);
      // The page owns its composer: once the user inserts, its own listener may send the text on.
      if (p.served.trapHits().length > 0) parts.push({ facts: ['after the user inserted, the page itself beaconed the composer text (its own listener)'], problems: [] });
      break;
    }
    case 'page-synthetic-events': {
      const value = await p.page.locator('#c').inputValue({ timeout: 5000 });
      parts.push({ facts: [], problems: value === '' ? [] : [`the composer holds ${value.length} chars after synthetic events`] });
      break;
    }
    case 'page-dom-clobbering':
    case 'skill-forges-context-delimiters': {
      if (!bait?.url) {
        parts.push({ facts: [], problems: ['no bait skill'] });
        break;
      }
      const problem = await approveByKey(s, p.report, 'bait');
      if (problem) {
        parts.push({ facts: [], problems: [problem] });
        break;
      }
      const selector = await addComposer(p);
      const inserted = await insertExplicitly(s, p, p.origin, bait.url, selector, 'popup');
      parts.push({ facts: ['after approving bait, the insert put exactly one context block in'], problems: [...inserted.problems, ...oneBlock(inserted.value)] });
      break;
    }
    case 'page-message-flood': {
      const opened = await openPopup(s, p.report);
      await opened.popup.page.close();
      const problems = [...opened.problems];
      if (opened.ms > RENDER_BUDGET_MS) problems.push(`the popup hung (${opened.ms} ms)`);
      const reports = await send<{ origin: string }[]>(s.extPage, { type: 'skillpin:reports-list' });
      if (reports.some((r) => r.origin.includes('victim.example'))) problems.push('victim.example was probed');
      parts.push({ facts: ['popup opened (no hang); no report for victim.example'], problems });
      break;
    }
    default:
      break;
  }
  return merge(...parts);
}
