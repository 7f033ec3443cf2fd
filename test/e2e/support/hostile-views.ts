// The extension's own views of a hostile origin: the popup list, a skill's details view (the
// SKILL.md rendered as markdown, or raw), and the options page's diagnostics JSON. Every check
// returns facts (what was seen) and problems (what breaks a rule); nothing here throws on a
// finding.
import type { Locator } from '@playwright/test';
import { isApprovable, type OriginReport, type SkillReport } from '../../../lib/types';
import type { HostileSession } from './hostile-session';
import { watchedPage, type PageWatch } from './hostile-watch';

export interface ViewResult {
  facts: string[];
  problems: string[];
}

export function merge(...parts: ViewResult[]): ViewResult {
  return { facts: parts.flatMap((p) => p.facts), problems: parts.flatMap((p) => p.problems) };
}

function cssString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ');
}

export function cardOf(popup: PageWatch, skill: SkillReport): Locator {
  return popup.page.locator(`li[data-skill-id="${cssString(skill.id)}"]`);
}

/** Opens popup.html for the origin and waits until it lists every skill of the report. */
export async function openPopup(s: HostileSession, report: OriginReport): Promise<{ popup: PageWatch; ms: number; problems: string[] }> {
  const t0 = Date.now();
  const popup = await watchedPage(s.context, `${s.base}/popup.html?origin=${encodeURIComponent(report.origin)}`);
  const problems: string[] = [];
  try {
    await popup.page.waitForFunction((n) => document.querySelectorAll('li[data-skill-id]').length >= n, report.skills.length, { timeout: 10_000 });
  } catch {
    problems.push(`the popup did not list ${report.skills.length} skill(s) within 10 s`);
  }
  return { popup, ms: Date.now() - t0, problems };
}

interface CardInfo {
  id: string;
  status: string | null;
  approveEnabled: boolean;
  title: string;
  titleElements: number;
  descElements: number;
}

/** Every skill has a card with its status; refused skills offer no enabled Approve; names and descriptions are text. */
export async function checkCards(popup: PageWatch, report: OriginReport): Promise<ViewResult> {
  const cards = await popup.page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('li[data-skill-id]')).map((li) => ({
      id: li.dataset['skillId'] ?? '',
      status: li.querySelector('.card-head [data-status]')?.getAttribute('data-status') ?? null,
      approveEnabled: li.querySelector('button[data-action="approve"]:not([disabled])') !== null,
      title: li.querySelector('.card-title')?.textContent ?? '',
      titleElements: li.querySelector('.card-title')?.children.length ?? -1,
      descElements: li.querySelector('.card-desc')?.children.length ?? 0,
    })),
  );
  const problems: string[] = [];
  const byId = new Map<string, CardInfo>(cards.map((c) => [c.id, c]));
  for (const sk of report.skills) {
    const card = byId.get(sk.id);
    if (!card) {
      problems.push(`no card for ${sk.name}`);
      continue;
    }
    if (card.status !== sk.status) problems.push(`card of ${sk.name} shows ${card.status ?? 'no status'}, the report says ${sk.status}`);
    if (!isApprovable(sk.status) && card.approveEnabled) problems.push(`${sk.name} (${sk.status}) offers an enabled Approve`);
    if (card.title !== sk.name) problems.push(`card title of ${sk.name} reads ${JSON.stringify(card.title)}`);
    if (card.titleElements !== 0 || card.descElements !== 0) problems.push(`name or description of ${sk.name} became elements`);
  }
  return { facts: [`popup lists ${cards.length} card(s)`], problems };
}

/** Links anywhere on the page: only http(s), mailto, the extension's own pages and fragments. */
export async function checkLinks(popup: PageWatch, label: string): Promise<ViewResult> {
  const bad = await popup.page.evaluate(() =>
    Array.from(document.querySelectorAll('a[href]'))
      .map((a) => a.getAttribute('href') ?? '')
      .filter((h) => {
        if (h.startsWith('#')) return false;
        try {
          return !['http:', 'https:', 'mailto:', 'chrome-extension:'].includes(new URL(h, location.href).protocol);
        } catch {
          return true;
        }
      }),
  );
  return { facts: [], problems: bad.length > 0 ? [`${label}: links with unsafe targets: ${bad.slice(0, 3).join(', ')}`] : [] };
}

/** Clicks the card's Details button and waits until the SKILL.md part has loaded. */
export async function openDetails(popup: PageWatch, skill: SkillReport): Promise<{ ms: number; problems: string[] }> {
  const t0 = Date.now();
  try {
    await cardOf(popup, skill).locator('[data-action="details"]').click({ timeout: 5000 });
    await popup.page.locator('article.details').waitFor({ timeout: 5000 });
    await popup.page.waitForFunction(() => document.querySelector('article.details .loading') === null, undefined, { timeout: 10_000 });
    return { ms: Date.now() - t0, problems: [] };
  } catch (e) {
    return { ms: Date.now() - t0, problems: [`details of ${skill.name} did not open: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`] };
  }
}

export async function backToList(popup: PageWatch): Promise<void> {
  await popup.page.locator('article.details [data-action="back"]').click({ timeout: 5000 });
  await popup.page.locator('li[data-skill-id]').first().waitFor({ timeout: 5000 });
}

/** Elements and attributes a rendered SKILL.md may hold (lib/render/markdown.ts plus the link finish). */
const RENDER_FORBIDDEN = 'script,style,iframe,frame,frameset,object,embed,svg,math,img,picture,source,video,audio,link,meta,base,form,input,button,textarea,select,template,noscript';
const RENDER_ATTRS = ['href', 'title', 'align', 'start', 'target', 'rel', 'class'];

/** The rendered SKILL.md holds only document structure: no active element, handler, style or unsafe link. */
export async function checkRendered(popup: PageWatch): Promise<ViewResult & { present: boolean }> {
  const found = await popup.page.evaluate(
    ({ forbidden, attrs }) => {
      const root = document.querySelector('[data-testid="rendered"]');
      if (!root) return null;
      const elements = Array.from(root.querySelectorAll(forbidden)).map((e) => e.localName);
      const badAttrs: string[] = [];
      for (const el of Array.from(root.querySelectorAll('*'))) {
        for (const a of Array.from(el.attributes)) {
          if (!attrs.includes(a.name) || (a.name === 'class' && a.value !== 'link-url')) badAttrs.push(`${el.localName}[${a.name}]`);
        }
      }
      const links = Array.from(root.querySelectorAll('a')).map((a) => ({ href: a.getAttribute('href') ?? '', target: a.getAttribute('target'), rel: a.getAttribute('rel') ?? '' }));
      return { elements, badAttrs, links, count: root.querySelectorAll('*').length };
    },
    { forbidden: RENDER_FORBIDDEN, attrs: RENDER_ATTRS },
  );
  if (!found) return { present: false, facts: ['no rendered SKILL.md'], problems: [] };
  const problems: string[] = [];
  if (found.elements.length > 0) problems.push(`rendered SKILL.md holds ${[...new Set(found.elements)].join(', ')}`);
  if (found.badAttrs.length > 0) problems.push(`rendered SKILL.md keeps attributes ${[...new Set(found.badAttrs)].slice(0, 5).join(', ')}`);
  for (const l of found.links) {
    let protocol = '';
    try {
      protocol = new URL(l.href).protocol;
    } catch {
      protocol = 'unparsable';
    }
    if (!['http:', 'https:', 'mailto:'].includes(protocol)) problems.push(`rendered link to ${l.href}`);
    else if (l.target !== '_blank' || !/noopener/.test(l.rel)) problems.push(`rendered link ${l.href} can reach its opener`);
  }
  return { present: true, facts: [`rendered ${found.count} element(s), ${found.links.length} link(s)`], problems };
}

/**
 * Pokes every element of the rendered SKILL.md as a user (and a script) might: synthetic
 * clicks, hovers, focus and toggles on everything except http(s)/mailto links (which open a
 * new tab to a URL the user can read), then real mouse moves and Tab presses.
 */
export async function interactWithRendered(popup: PageWatch): Promise<void> {
  await popup.page.evaluate(() => {
    const root = document.querySelector('[data-testid="rendered"]');
    if (!root) return;
    for (const el of Array.from(root.querySelectorAll<HTMLElement>('*'))) {
      const href = el instanceof HTMLAnchorElement ? el.protocol : null;
      const navigates = href === 'http:' || href === 'https:' || href === 'mailto:';
      for (const type of ['mouseover', 'mouseenter', 'mousemove', 'focus', 'focusin', 'toggle', 'animationstart', 'load', 'error']) {
        el.dispatchEvent(new Event(type, { bubbles: true }));
      }
      if (!navigates) el.click();
      el.focus?.();
    }
  });
  const rendered = popup.page.locator('[data-testid="rendered"]');
  const box = await rendered.boundingBox();
  if (box) {
    for (let i = 0; i < 6; i++) await popup.page.mouse.move(box.x + 5 + (i * box.width) / 6, box.y + Math.min(box.height - 1, 10 + i * 25));
  }
  for (let i = 0; i < 5; i++) await popup.page.keyboard.press('Tab');
}

/** Switches to the raw view: the SKILL.md bytes as text only. */
export async function checkRaw(popup: PageWatch, mustContain: string | null): Promise<ViewResult> {
  const problems: string[] = [];
  try {
    await popup.page.locator('article.details [data-action="raw"]').click({ timeout: 5000 });
    const raw = popup.page.locator('[data-testid="raw"]');
    await raw.waitFor({ timeout: 5000 });
    const info = await raw.evaluate((el) => ({ children: el.children.length, text: el.textContent ?? '' }));
    if (info.children !== 0) problems.push('the raw view holds elements');
    if (mustContain !== null && !info.text.includes(mustContain)) problems.push(`the raw view lacks ${JSON.stringify(mustContain.slice(0, 40))}`);
    await popup.page.locator('article.details .toggle button').first().click({ timeout: 5000 });
  } catch (e) {
    problems.push(`raw view: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  return { facts: [], problems };
}

/** The options page's diagnostics JSON for the origin: the report as text, never markup. */
export async function checkDiagnostics(s: HostileSession, report: OriginReport, mustContain: string[] = []): Promise<ViewResult & { watch: PageWatch; json: string }> {
  const watch = await watchedPage(s.context, `${s.base}/options.html?origin=${encodeURIComponent(report.origin)}`);
  const problems: string[] = [];
  let json = '';
  try {
    const pre = watch.page.locator('[data-testid="diag-json"]');
    // The JSON is folded below the summary: opened as a user opens it.
    await watch.page.locator('details.raw-json > summary').click({ timeout: 15_000 });
    await pre.waitFor({ timeout: 15_000 });
    const info = await pre.evaluate((el) => ({ children: el.children.length, text: el.textContent ?? '' }));
    json = info.text;
    if (info.children !== 0) problems.push('the diagnostics JSON view holds elements');
    const parsed = JSON.parse(info.text) as { origin?: unknown; skills?: unknown[] };
    if (parsed.origin !== report.origin) problems.push(`diagnostics show ${String(parsed.origin)}`);
    if (!Array.isArray(parsed.skills) || parsed.skills.length !== report.skills.length) problems.push('diagnostics list another number of skills');
    for (const m of mustContain) if (!info.text.includes(m)) problems.push(`diagnostics JSON lacks ${JSON.stringify(m)}`);
  } catch (e) {
    problems.push(`diagnostics view: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  return { watch, json, facts: [], problems };
}

/** Each text is visible on the page (inside `scope` when given). */
export async function checkVisibleText(popup: PageWatch, texts: string[], scope: string, label: string): Promise<ViewResult> {
  const problems: string[] = [];
  for (const text of texts) {
    // Any visible occurrence counts: the same words may also stand in a folded section.
    const hit = popup.page.locator(scope).getByText(text, { exact: false }).filter({ visible: true }).first();
    const visible = await hit.isVisible().catch(() => false);
    if (!visible) problems.push(`${label}: ${JSON.stringify(text)} is not visible`);
  }
  return { facts: [], problems };
}
