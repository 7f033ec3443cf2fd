// Publisher and chat sites on 127.0.0.1 for the end-to-end tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, type TestServer } from '../../support/server';
import type { BrowserContext, Page } from '@playwright/test';
import { writePublisherSite, DEMO_SKILLS, type SkillSpec } from '../../../scripts/lib/publisher-site.mjs';
import type { ActionResult } from '../../../lib/messages';
import type { OriginReport } from '../../../lib/types';
import { send, waitForReport } from './extension';

export interface PublisherSite {
  server: TestServer;
  dir: string;
  origin: string;
  /** Re-writes the site in place (same origin), e.g. with a new key or changed content. */
  republish(opts: { seed?: Uint8Array; skills?: SkillSpec[]; sign?: boolean }): void;
  close(): Promise<void>;
}

export async function startPublisher(opts: { seed?: Uint8Array; skills?: SkillSpec[]; sign?: boolean } = {}): Promise<PublisherSite> {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-site-'));
  writePublisherSite(dir, { skills: opts.skills ?? DEMO_SKILLS, seed: opts.seed, sign: opts.sign });
  const server = await startServer({ root: dir });
  return {
    server,
    dir,
    origin: server.origin,
    republish: (o) => {
      writePublisherSite(dir, { skills: o.skills ?? DEMO_SKILLS, seed: o.seed, sign: o.sign });
    },
    close: () => server.close(),
  };
}

export async function startChat(): Promise<TestServer> {
  return startServer({ root: resolve('test/e2e/fixtures/mock-chat') });
}

export function seed(byte: number): Uint8Array {
  return new Uint8Array(32).fill(byte);
}

/**
 * Visits the publisher in a new tab, waits for its report and approves its first skill as the
 * popup's Approve does; returns that tab and the approved skill (its URL and LF digest).
 */
export async function visitAndApproveFirst(context: BrowserContext, extPage: Page, site: PublisherSite): Promise<{ page: Page; skill: { url: string; digestLf: string } }> {
  const page = await context.newPage();
  await page.goto(site.origin + '/');
  const report = await waitForReport<OriginReport>(extPage, site.origin);
  const first = report.skills[0];
  if (!first?.url || !first.actual) throw new Error(`${site.origin} lists no skill to approve`);
  const approved = await send<ActionResult>(extPage, { type: 'skillpin:approve', origin: site.origin, url: first.url, digestLf: first.actual.lf, confirmUnverified: false, confirmCrossOrigin: false });
  if (!approved.ok) throw new Error(`approving ${first.url} failed: ${JSON.stringify(approved)}`);
  return { page, skill: { url: first.url, digestLf: first.actual.lf } };
}
