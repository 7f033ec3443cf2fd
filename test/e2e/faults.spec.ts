// Faults in real headless Chromium with the built extension: the service worker stopped in the
// middle of a probe, a verification and a pin write; two probes racing to pin different keys;
// IndexedDB refusing writes, holding a corrupted record, or blocked by an old connection during
// an upgrade; a browser restart on a v1 database; and a burst of 200 navigations over 50 origins.
import type { Page } from '@playwright/test';
import { test, expect, send, waitForReport, launch } from './support/extension';
import { seed } from './support/sites';
import { workerControl, currentWorker, workerHeapUsed } from './support/cdp';
import { startFaultSite, siteFile, type FaultSite } from './support/fault-sites';
import { startServer, type TestServer } from '../support/server';
import { writePublisherSite, DEMO_SKILLS, keyPair } from '../../scripts/lib/publisher-site.mjs';
import { createV1Stores, writeV1 } from '../fixtures/trust/v1-database';
import { v1Sample, V1_ORIGIN, V1_SKILL_URL, V1_FINGERPRINT, V1_KEY } from '../fixtures/trust/v1-sample';
import type { Approval, OriginReport, Pin, Settings } from '../../lib/types';
import type { ActionResult, ContextResult } from '../../lib/messages';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INDEX = '/.well-known/agent-skills/index.json';
const PUB = '/.well-known/agent-skills/signing-key.pub';
const DISCOVERY = ['/llms.txt', INDEX, '/.well-known/skills/index.json', PUB];

/** One record of the extension's database read with the raw IndexedDB API (no validation). */
async function rawGet(page: Page, store: string, key: IDBValidKey): Promise<unknown> {
  return page.evaluate(
    ([s, k]) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('skillpin');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(s, 'readonly').objectStore(s).get(k);
          req.onsuccess = () => {
            db.close();
            resolve(req.result ?? null);
          };
          req.onerror = () => {
            db.close();
            reject(req.error);
          };
        };
      }),
    [store, key] as const,
  );
}

/** Writes one record as it is, bypassing every check of the store. */
async function rawPut(page: Page, store: string, value: unknown): Promise<void> {
  await page.evaluate(
    ([s, v]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('skillpin');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(s, 'readwrite');
          tx.objectStore(s).put(v);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => {
            db.close();
            reject(tx.error);
          };
        };
      }),
    [store, value] as const,
  );
}

async function pinOf(page: Page, origin: string): Promise<Pin | undefined> {
  const pins = await send<Pin[]>(page, { type: 'skillpin:pins-list' });
  return pins.find((p) => p.origin === origin);
}

function expectCompletePin(raw: unknown, origin: string, keyB64: string): void {
  // Absent, or the whole record: never a half-written one.
  if (raw === null) return;
  const pin = raw as Pin;
  expect(pin.origin).toBe(origin);
  expect(pin.key).toBe(keyB64);
  expect(pin.fingerprint).toMatch(/^SHA256:/);
  expect(Number.isFinite(pin.firstSeen) && Number.isFinite(pin.lastSeen)).toBe(true);
}

async function approveFirst(page: Page, report: OriginReport, name: string): Promise<string> {
  const skill = report.skills.find((s) => s.name === name);
  if (!skill?.url || !skill.actual) throw new Error(`no ${name}`);
  const r = await send<ActionResult>(page, { type: 'skillpin:approve', origin: report.origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false });
  expect(r).toEqual({ ok: true });
  return skill.url;
}

const allSigned = (r: OriginReport): boolean => r.skills.length === DEMO_SKILLS.length && r.skills.every((s) => s.status === 'verified-signed');

test.describe('the service worker stopped mid-way', () => {
  test('in the middle of discovery: no stuck probing state, the next visit completes', async ({ context, sw, extPage }) => {
    const site = await startFaultSite({ seed: seed(11) });
    const ctl = await workerControl(context, extPage);
    try {
      await sw.evaluate(() => {
        (globalThis as { faultMarker?: number }).faultMarker = 1;
      });
      const gate = site.hold('/llms.txt');
      const page = await context.newPage();
      await page.goto(site.origin + '/');
      await gate.arrived;
      await ctl.stop();
      gate.release();

      // Waking the worker with a message: it is a new worker, nothing of the old probe is in flight.
      const left = await send<OriginReport | null>(extPage, { type: 'skillpin:report', origin: site.origin });
      expect(left === null || left.state !== 'probing').toBe(true);
      const fresh = await currentWorker(context);
      expect(await fresh.evaluate(() => (globalThis as { faultMarker?: number }).faultMarker ?? null)).toBeNull();
      expectCompletePin(await rawGet(extPage, 'pins', site.origin), site.origin, site.keyB64);

      await page.reload();
      const done = await waitForReport<OriginReport>(extPage, site.origin);
      expect(done.state).toBe('done');
      expect(allSigned(done)).toBe(true);
      expect((await pinOf(extPage, site.origin))?.key).toBe(site.keyB64);
      expect(ctl.counts().stopped).toBe(1);
    } finally {
      await ctl.close();
      await site.close();
    }
  });

  test('in the middle of a verification: pin, approval and verified bytes intact, the next visit completes', async ({ context, extPage }) => {
    const site = await startFaultSite({ seed: seed(12) });
    const ctl = await workerControl(context, extPage);
    try {
      const page = await context.newPage();
      await page.goto(site.origin + '/');
      const first = await waitForReport<OriginReport>(extPage, site.origin);
      expect(allSigned(first)).toBe(true);
      const url = await approveFirst(extPage, first, 'search-docs');
      const pinBefore = await pinOf(extPage, site.origin);

      // A forced re-check fetches every SKILL.md again; one of them hangs, and the worker stops.
      const gate = site.hold('/skills/api-client/SKILL.md');
      const probing = send(extPage, { type: 'skillpin:probe', origin: site.origin }).catch((e: unknown) => e);
      await gate.arrived;
      await ctl.stop();
      gate.release();
      await probing;

      const approvals = await send<Approval[]>(extPage, { type: 'skillpin:approvals-list' });
      expect(approvals.filter((a) => a.origin === site.origin).map((a) => a.url)).toEqual([url]);
      // lastSeen may move forward (the stopped probe compared the key); nothing else does.
      const pinAfter = await pinOf(extPage, site.origin);
      expect({ ...pinAfter, lastSeen: 0 }).toEqual({ ...pinBefore, lastSeen: 0 });
      const left = await send<OriginReport | null>(extPage, { type: 'skillpin:report', origin: site.origin });
      expect(left?.state).not.toBe('probing');

      await page.reload();
      const after = await send<OriginReport>(extPage, { type: 'skillpin:probe', origin: site.origin });
      expect(after.state).toBe('done');
      expect(allSigned(after)).toBe(true);
      expect(after.skills.find((s) => s.url === url)?.approval.state).toBe('approved');
      const ctx = await send<ContextResult>(extPage, { type: 'skillpin:skill-context', origin: site.origin, url });
      expect(ctx.ok).toBe(true);
    } finally {
      await ctl.close();
      await site.close();
    }
  });

  test('right at the pin write of a first visit: the pin is absent or complete, the next visit pins it', async ({ context, extPage }) => {
    const ctl = await workerControl(context, extPage);
    const sites: FaultSite[] = [];
    try {
      // The pin is written right after signing-key.pub arrives; stop the worker 0, 5 and 25 ms later.
      for (const [i, delay] of [0, 5, 25].entries()) {
        const site = await startFaultSite({ seed: seed(20 + i) });
        sites.push(site);
        const stopped = new Promise<void>((resolve, reject) => {
          site.afterResponse(PUB, () => {
            setTimeout(() => ctl.stop().then(resolve, reject), delay);
          });
        });
        const page = await context.newPage();
        await page.goto(site.origin + '/');
        await stopped;
        expectCompletePin(await rawGet(extPage, 'pins', site.origin), site.origin, site.keyB64);
        const left = await send<OriginReport | null>(extPage, { type: 'skillpin:report', origin: site.origin });
        expect(left === null || left.state !== 'probing').toBe(true);

        await page.reload();
        const done = await waitForReport<OriginReport>(extPage, site.origin);
        expect(allSigned(done)).toBe(true);
        expect(['pinned-now', 'match']).toContain(done.key.state);
        expect((await pinOf(extPage, site.origin))?.key).toBe(site.keyB64);
        await page.close();
      }
      expect(ctl.counts().stopped).toBe(3);
    } finally {
      await ctl.close();
      for (const s of sites) await s.close();
    }
  });
});
