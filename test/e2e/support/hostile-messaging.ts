// Every privileged message path, tried from where a hostile page can reach: the page's own
// world (chrome.runtime is not exposed to web pages: no externally_connectable), window
// messages, and the extension's chat content script world (found over the DevTools protocol:
// the isolated world Chromium creates for the extension in that tab), where
// chrome.runtime.sendMessage reaches the background but must be refused as `forbidden`.
import type { CDPSession } from '@playwright/test';
import { parseRequest, type PrivilegedRequests } from '../../../lib/messages';
import { writeBackup } from '../../../lib/store/backup/write';
import { fingerprint } from '../../../lib/verify/fingerprint';
import type { OriginReport, Settings } from '../../../lib/types';
import { keyPair, seed } from '../../hostile/site-kit';
import type { PlayedCase } from './hostile-play';
import { getSettings, type HostileSession } from './hostile-session';
import type { ViewResult } from './hostile-views';

type PrivilegedType = keyof PrivilegedRequests;

/** One well-formed request of every privileged type, aimed at the case's origin and skill. */
export function forgedRequests(report: OriginReport, tabId: number, settings: Settings): { [T in PrivilegedType]: { type: T } & Record<string, unknown> } {
  const skill = report.skills[0];
  const origin = report.origin;
  const url = skill?.url ?? `${origin}/skills/bait/SKILL.md`;
  const digestLf = skill?.actual?.lf ?? '0'.repeat(64);
  const forgedKey = keyPair(seed(250));
  const json = writeBackup(
    [{ origin, key: forgedKey.publicKeyB64, fingerprint: fingerprint(forgedKey.publicKey), firstSeen: 1, lastSeen: 1 }],
    [{ origin, url, digestLf, digestRaw: digestLf, keyFingerprint: null, statusAtApproval: 'unverified', name: 'bait', approvedAt: 1 }],
    1,
  );
  return {
    'skillpin:approve': { type: 'skillpin:approve', origin, url, digestLf, confirmUnverified: true, confirmCrossOrigin: true },
    'skillpin:confirm-findings': { type: 'skillpin:confirm-findings', origin, url, digestLf, confirmFindings: [] },
    'skillpin:revoke': { type: 'skillpin:revoke', origin, url },
    'skillpin:trust-key': { type: 'skillpin:trust-key', origin, expectedFingerprint: null, newFingerprint: fingerprint(forgedKey.publicKey) },
    'skillpin:skill-text': { type: 'skillpin:skill-text', origin, url },
    'skillpin:skill-context': { type: 'skillpin:skill-context', origin, url },
    'skillpin:approved-list': { type: 'skillpin:approved-list' },
    'skillpin:insert': { type: 'skillpin:insert', tabId, chatOrigin: origin, origin, url },
    'skillpin:settings-get': { type: 'skillpin:settings-get' },
    'skillpin:settings-set': { type: 'skillpin:settings-set', settings: { ...settings, paused: true, allowList: [origin], denyList: ['https://victim.example'] } },
    'skillpin:settings-update': { type: 'skillpin:settings-update', changes: { paused: true, denyList: ['https://victim.example'] } },
    'skillpin:policy-get': { type: 'skillpin:policy-get' },
    'skillpin:site-access': { type: 'skillpin:site-access', origin },
    'skillpin:pins-list': { type: 'skillpin:pins-list' },
    'skillpin:pins-page': { type: 'skillpin:pins-page', offset: 0, limit: 100, filter: '' },
    'skillpin:pin-forget': { type: 'skillpin:pin-forget', origin },
    'skillpin:key-history': { type: 'skillpin:key-history' },
    'skillpin:key-revoke': { type: 'skillpin:key-revoke', origin, fingerprint: fingerprint(forgedKey.publicKey) },
    'skillpin:approvals-list': { type: 'skillpin:approvals-list' },
    'skillpin:backup': { type: 'skillpin:backup' },
    'skillpin:import-preview': { type: 'skillpin:import-preview', json },
    'skillpin:import': { type: 'skillpin:import', json, confirmUnverified: [`${origin} ${url}`], confirmCrossOrigin: [`${origin} ${url}`] },
    'skillpin:reports-list': { type: 'skillpin:reports-list' },
    'skillpin:skill-export': { type: 'skillpin:skill-export', origin, url },
    'skillpin:exports-list': { type: 'skillpin:exports-list' },
    'skillpin:desktop-status': { type: 'skillpin:desktop-status' },
    'skillpin:desktop-check': { type: 'skillpin:desktop-check' },
  };
}

/** The isolated world of the extension in a tab, after injecting the chat content script there. */
export interface ContentWorld {
  /** Evaluates an expression there (promises awaited); the value, or `{ thrown }`. */
  evaluate(expression: string): Promise<unknown>;
  close(): Promise<void>;
}

interface ContextDescription {
  id: number;
  origin: string;
  name: string;
  auxData?: { type?: string; isDefault?: boolean };
}

export async function contentScriptWorld(s: HostileSession, p: PlayedCase): Promise<ContentWorld> {
  const cdp: CDPSession = await s.context.newCDPSession(p.page);
  const contexts: ContextDescription[] = [];
  cdp.on('Runtime.executionContextCreated', (e: { context: ContextDescription }) => contexts.push(e.context));
  await cdp.send('Runtime.enable');
  await s.sw.evaluate(async (tabId) => {
    await chrome.scripting.executeScript({ target: { tabId }, files: ['/content-scripts/chat.js'] });
  }, p.tabId);
  const deadline = Date.now() + 5000;
  let world: ContextDescription | undefined;
  while (!world && Date.now() < deadline) {
    world = contexts.find((c) => c.auxData?.type === 'isolated' && c.origin === s.base);
    if (!world) await new Promise((r) => setTimeout(r, 50));
  }
  if (!world) {
    await cdp.detach().catch(() => undefined);
    throw new Error(`no isolated world of the extension in the tab (saw ${contexts.map((c) => `${c.auxData?.type ?? '?'}:${c.name || c.origin}`).join(', ')})`);
  }
  const contextId = world.id;
  return {
    evaluate: async (expression) => {
      const r = (await cdp.send('Runtime.evaluate', { expression, contextId, awaitPromise: true, returnByValue: true })) as {
        result: { value?: unknown };
        exceptionDetails?: { text?: string; exception?: { description?: string } };
      };
      if (r.exceptionDetails) return { thrown: r.exceptionDetails.exception?.description ?? r.exceptionDetails.text ?? 'exception' };
      return r.result.value;
    },
    close: () => cdp.detach().catch(() => undefined),
  };
}

function isForbidden(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false && (v as { error?: unknown }).error === 'forbidden';
}

/**
 * From the content script world: the public report request answers (the channel works), every
 * privileged request answers `forbidden`.
 */
export async function sweepFromContentScript(s: HostileSession, p: PlayedCase): Promise<ViewResult> {
  const problems: string[] = [];
  const requests = forgedRequests(p.report, p.tabId, await getSettings(s));
  for (const [type, req] of Object.entries(requests)) {
    if (parseRequest(req) === null) problems.push(`setup: the forged ${type} is not well-formed, it would test the validator instead`);
  }
  let world: ContentWorld;
  try {
    world = await contentScriptWorld(s, p);
  } catch (e) {
    return { facts: [], problems: [`content script world: ${e instanceof Error ? e.message : String(e)}`] };
  }
  try {
    const control = await world.evaluate(`chrome.runtime.sendMessage(${JSON.stringify({ type: 'skillpin:report', origin: p.origin })})`);
    const controlOk = typeof control === 'object' && control !== null && (control as { origin?: unknown }).origin === p.origin;
    if (!controlOk) problems.push(`content script world: the public report request did not answer (${JSON.stringify(control).slice(0, 120)})`);
    let refused = 0;
    for (const [type, req] of Object.entries(requests)) {
      const answer = await world.evaluate(`chrome.runtime.sendMessage(${JSON.stringify(req)})`);
      if (isForbidden(answer)) refused += 1;
      else problems.push(`content script world: ${type} answered ${JSON.stringify(answer).slice(0, 160)}`);
    }
    return { facts: [`content script world: ${refused}/${Object.keys(requests).length} privileged requests forbidden, public report answered`], problems };
  } finally {
    await world.close();
  }
}

/** From the page's own world: no extension messaging at all (the manifest exposes none); window messages are ignored. */
export async function sweepFromPage(s: HostileSession, p: PlayedCase): Promise<ViewResult> {
  const problems: string[] = [];
  const manifest = await s.sw.evaluate(() => chrome.runtime.getManifest() as unknown as Record<string, unknown>);
  if ('externally_connectable' in manifest) problems.push('the manifest declares externally_connectable');
  const requests = Object.values(forgedRequests(p.report, p.tabId, await getSettings(s)));
  const outcome = await p.page.evaluate(
    async ({ id, reqs }) => {
      for (const r of reqs) window.postMessage(r, '*');
      const g = globalThis as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } };
      const sendMessage = g.chrome?.runtime?.sendMessage;
      if (typeof sendMessage !== 'function') return { available: false, answers: [] as string[] };
      const answers: string[] = [];
      for (const r of reqs) {
        try {
          answers.push(
            await new Promise<string>((resolve) => {
              (sendMessage as (id: string, m: unknown, cb: (x: unknown) => void) => void)(id, r, (x) => resolve(x === undefined ? 'no answer' : `answered ${JSON.stringify(x)}`));
              setTimeout(() => resolve('no answer'), 1000);
            }),
          );
        } catch (e) {
          answers.push(`threw ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      return { available: true, answers };
    },
    { id: s.extensionId, reqs: requests },
  );
  const answered = outcome.answers.filter((a) => a.startsWith('answered'));
  if (answered.length > 0) problems.push(`the page world reached the extension: ${answered[0]?.slice(0, 160) ?? ''}`);
  const how = outcome.available
    ? `chrome.runtime.sendMessage present, ${outcome.answers.length - answered.length}/${outcome.answers.length} calls threw or went unanswered`
    : 'chrome.runtime.sendMessage undefined';
  return { facts: [`page world: ${how}; ${requests.length} window messages posted`], problems };
}
