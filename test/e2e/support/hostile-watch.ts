// Extension pages opened under watch: console errors, Content-Security-Policy violations
// (collected by a listener installed before the page's own scripts) and every request the
// page makes outside the extension, split into those that got an answer and those blocked.
import type { BrowserContext, Page } from '@playwright/test';

export const CSP_LOG = '__skillpinCspLog';

export interface PageWatch {
  page: Page;
  consoleErrors: string[];
  /** Requests to anything but the extension itself (URLs). */
  outbound: string[];
  /** Outbound requests that received a response (a failure: something left the page). */
  answered: string[];
  /** Outbound requests that failed or were blocked. */
  blocked: string[];
  /** `directive blocked-uri` of every CSP violation seen so far. */
  csp(): Promise<string[]>;
  /** Reads a global of the page (the payload sentinel); undefined when absent. */
  global(name: string): Promise<unknown>;
}

function isOwn(url: string): boolean {
  return url.startsWith('chrome-extension://') || url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank';
}

export async function watchedPage(context: BrowserContext, url: string): Promise<PageWatch> {
  const page = await context.newPage();
  const w: PageWatch = {
    page,
    consoleErrors: [],
    outbound: [],
    answered: [],
    blocked: [],
    csp: async () => {
      try {
        return await page.evaluate((key) => {
          const log = (window as unknown as Record<string, unknown>)[key];
          return Array.isArray(log) ? log.map(String) : ['(no CSP listener)'];
        }, CSP_LOG);
      } catch (e) {
        return [`(CSP log unreadable: ${e instanceof Error ? e.message : String(e)})`];
      }
    },
    global: (name) => page.evaluate((n) => (window as unknown as Record<string, unknown>)[n], name),
  };
  await page.addInitScript((key) => {
    const log: string[] = [];
    Object.defineProperty(window, key, { value: log, configurable: false, writable: false });
    document.addEventListener('securitypolicyviolation', (e) => log.push(`${e.effectiveDirective} ${e.blockedURI || '(inline)'}`), true);
  }, CSP_LOG);
  page.on('console', (m) => {
    if (m.type() === 'error') w.consoleErrors.push(m.text().slice(0, 300));
  });
  page.on('pageerror', (e) => w.consoleErrors.push(`pageerror: ${e.message.slice(0, 300)}`));
  page.on('request', (r) => {
    if (!isOwn(r.url())) w.outbound.push(r.url());
  });
  page.on('response', (r) => {
    if (!isOwn(r.url())) w.answered.push(r.url());
  });
  page.on('requestfailed', (r) => {
    if (!isOwn(r.url())) w.blocked.push(`${r.url()} (${r.failure()?.errorText ?? 'failed'})`);
  });
  await page.goto(url);
  return w;
}

/** A short summary of what a watched page saw, and the problems in it. */
export async function watchSummary(w: PageWatch, label: string): Promise<{ facts: string[]; problems: string[] }> {
  const facts: string[] = [];
  const problems: string[] = [];
  const csp = await w.csp();
  if (csp.length > 0) facts.push(`${label}: ${csp.length} CSP block(s) [${[...new Set(csp.map((c) => c.split(' ')[0]))].join(', ')}]`);
  if (w.blocked.length > 0) facts.push(`${label}: ${w.blocked.length} outbound request(s) blocked`);
  if (w.answered.length > 0) problems.push(`${label}: outbound request(s) answered: ${[...new Set(w.answered)].slice(0, 3).join(', ')}`);
  const errors = w.consoleErrors.filter((e) => !/Content Security Policy/i.test(e));
  if (errors.length > 0) facts.push(`${label}: ${errors.length} console error(s): ${errors.slice(0, 2).join(' | ')}`);
  return { facts, problems };
}
