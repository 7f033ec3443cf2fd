// One Chromium with the built extension, shared by the hostile-publisher cases of a worker:
// an extension page to talk to the background as the popup does, and read-only views of the
// extension's trust state over its own messages (pins, approvals, stored bytes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import type { SkillText } from '../../../lib/messages';
import type { TrustStore } from '../../../lib/store/store-api';
import type { Approval, OriginReport, Pin, Settings } from '../../../lib/types';
import type { KeyHistoryEntry, StoredSkill } from '../../../lib/store/records';
import { CHROMIUM, EXTENSION_DIR, openReadyPage, send, workerReady } from './extension';
import { extensionArgs } from '../../../scripts/lib/chromium.mjs';

export interface HostileSession {
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  /** The options page, kept open: messages are sent from here. */
  extPage: Page;
  /** `chrome-extension://<id>` */
  base: string;
  close(): Promise<void>;
}

/** The extension's service worker once its listeners are registered (polled: the worker may start before anyone listens). */
async function readyWorker(context: BrowserContext, timeoutMs: number): Promise<Worker> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sw = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
    if (sw) {
      await workerReady(sw, Math.max(1000, deadline - Date.now()));
      return sw;
    }
    if (Date.now() > deadline) throw new Error(`the extension's service worker did not start within ${timeoutMs} ms`);
    await context.waitForEvent('serviceworker', { timeout: 1000 }).catch(() => undefined);
  }
}

/** A persistent Chromium profile with the built extension, as the e2e harness launches it. */
export async function openSession(): Promise<HostileSession> {
  const profileDir = mkdtempSync(join(tmpdir(), 'skillpin-hostile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: extensionArgs(EXTENSION_DIR),
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const close = async (): Promise<void> => {
    await context.close().catch(() => undefined);
    rmSync(profileDir, { recursive: true, force: true });
  };
  try {
    const sw = await readyWorker(context, 60_000);
    const extensionId = new URL(sw.url()).host;
    const base = `chrome-extension://${extensionId}`;
    const extPage = await openReadyPage(context, extensionId);
    return { context, sw, extensionId, extPage, base, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export const listPins = (s: HostileSession): Promise<Pin[]> => send<Pin[]>(s.extPage, { type: 'skillpin:pins-list' });
export const listKeyHistory = (s: HostileSession): Promise<KeyHistoryEntry[]> => send<KeyHistoryEntry[]>(s.extPage, { type: 'skillpin:key-history' });
export const listApprovals = (s: HostileSession): Promise<Approval[]> => send<Approval[]>(s.extPage, { type: 'skillpin:approvals-list' });
export const getSettings = (s: HostileSession): Promise<Settings> => send<Settings>(s.extPage, { type: 'skillpin:settings-get' });
export const getReport = (s: HostileSession, origin: string): Promise<OriginReport | null> => send<OriginReport | null>(s.extPage, { type: 'skillpin:report', origin });

/** The trust state the cases must not change, as comparable text. */
export async function trustSnapshot(s: HostileSession): Promise<{ approvals: string; pins: string; settings: string }> {
  const approvals = (await listApprovals(s)).map((a) => `${a.origin} ${a.url} ${a.digestLf} ${a.keyFingerprint ?? '-'}`).sort();
  const pins = (await listPins(s)).map((p) => `${p.origin} ${p.fingerprint}`).sort();
  const settings = await getSettings(s);
  return { approvals: approvals.join('\n'), pins: pins.join('\n'), settings: JSON.stringify(settings) };
}

const encoder = new TextEncoder();

function storedFrom(origin: string, url: string, t: SkillText): StoredSkill {
  return { origin, url, digestLf: t.digestLf, digestRaw: t.digestRaw, bytes: encoder.encode(t.text), storedAt: 0 };
}

function readOnly(name: string): never {
  throw new Error(`${name}: the extension's trust state is read-only from the test runner`);
}

function unavailable(name: string): never {
  throw new Error(`${name}: not readable through the extension's messages`);
}

/**
 * The extension's trust store seen through its messages, for the catalogue's custom checks:
 * pins, approvals, reports and stored bytes (as the UTF-8 text the extension shows) can be read;
 * every write throws.
 */
export function extensionStore(s: HostileSession): TrustStore {
  const skillText = (origin: string, url: string): Promise<{ current: SkillText | null; approved: SkillText | null }> => send(s.extPage, { type: 'skillpin:skill-text', origin, url });
  return {
    getPin: async (origin) => (await listPins(s)).find((p) => p.origin === origin) ?? null,
    pinIfAbsent: () => readOnly('pinIfAbsent'),
    replacePin: () => readOnly('replacePin'),
    forgetPin: () => readOnly('forgetPin'),
    listPins: () => listPins(s),
    pinsPage: () => unavailable('pinsPage'),
    getKeyHistory: async (origin) => (await listKeyHistory(s)).filter((k) => k.origin === origin),
    listKeyHistory: () => listKeyHistory(s),
    revokeKey: () => readOnly('revokeKey'),
    getApprovals: async (origin) => (await listApprovals(s)).filter((a) => a.origin === origin),
    getApproval: async (origin, url) => (await listApprovals(s)).find((a) => a.origin === origin && a.url === url) ?? null,
    approve: () => readOnly('approve'),
    importApproval: () => readOnly('importApproval'),
    revoke: () => readOnly('revoke'),
    listApprovals: () => listApprovals(s),
    putSkill: () => readOnly('putSkill'),
    putSkills: () => readOnly('putSkills'),
    getSkill: async (origin, url, digestLf) => {
      const t = await skillText(origin, url);
      const hit = [t.current, t.approved].find((x): x is SkillText => x !== null && x.digestLf === digestLf);
      return hit ? storedFrom(origin, url, hit) : null;
    },
    getLatestSkill: async (origin, url) => {
      const t = await skillText(origin, url);
      return t.current ? storedFrom(origin, url, t.current) : null;
    },
    getCache: () => unavailable('getCache'),
    putCache: () => readOnly('putCache'),
    putCacheEntries: () => readOnly('putCacheEntries'),
    deleteCacheForOrigin: () => readOnly('deleteCacheForOrigin'),
    getReport: (origin) => getReport(s, origin),
    putReport: () => readOnly('putReport'),
    listReports: () => unavailable('listReports'),
    getOriginState: () => unavailable('getOriginState'),
    commitProbe: () => readOnly('commitProbe'),
    getSettings: () => getSettings(s),
    putSettings: () => readOnly('putSettings'),
    close: () => undefined,
  };
}
