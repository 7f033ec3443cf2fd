// In the background: Undo of a withdrawal restores exactly the approval withdrawn (the
// same digest, key and date) or nothing when the content or the key changed since; the size and
// token estimate a report shows are those of the block Copy and Insert hand on; after a change of
// settings from a page the badges of open tabs follow at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundService } from '../../../lib/background/service';
import type { ActionResult, ContextResult } from '../../../lib/messages';
import type { Approval, OriginReport } from '../../../lib/types';
import { estimateTokenCount } from '../../../lib/verify/tokens';
import { DEMO_SKILLS, writePublisherSite } from '../../../scripts/lib/publisher-site.mjs';
import { servePublisherSite, type ServedSite } from '../../support/served-site';
import { FakePlatform } from './fake-platform';
import { POPUP, startService } from './service-harness';

let published: ServedSite;
let platform: FakePlatform;
let service: BackgroundService;
let now = Date.parse('2026-11-29T12:00:00Z');
const seed = (b: number) => new Uint8Array(32).fill(b);

beforeEach(async () => {
  now = Date.parse('2026-11-29T12:00:00Z');
  published = await servePublisherSite('skillpin-words-', { skills: DEMO_SKILLS, seed: seed(1) });
  platform = new FakePlatform();
  platform.tabs = [{ id: 1, url: `${published.server.origin}/`, incognito: false }];
  service = await startService({ platform, name: 'bg-words', now: () => now });
});

afterEach(async () => {
  await published.close();
});

const ask = <T>(msg: Record<string, unknown>) => service.handleMessage(msg, POPUP) as Promise<T>;
const origin = () => published.server.origin;
const probe = () => ask<OriginReport>({ type: 'skillpin:probe', origin: origin() });
const approvals = () => ask<Approval[]>({ type: 'skillpin:approvals-list' });

async function approveAndWithdraw(name: string): Promise<Approval> {
  const report = await probe();
  const skill = report.skills.find((s) => s.name === name)!;
  const res = await ask<ActionResult>({ type: 'skillpin:approve', origin: origin(), url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
  expect(res).toEqual({ ok: true });
  const [approval] = await approvals();
  now += 60_000;
  expect(await ask<ActionResult>({ type: 'skillpin:revoke', origin: origin(), url: skill.url })).toEqual({ ok: true });
  expect(await approvals()).toEqual([]);
  return approval!;
}

const undo = (a: Approval) =>
  ask<ActionResult>({
    type: 'skillpin:approve',
    origin: a.origin,
    url: a.url,
    digestLf: a.digestLf,
    confirmUnverified: false,
    confirmCrossOrigin: false,
    restore: { keyFingerprint: a.keyFingerprint, approvedAt: a.approvedAt },
  });

describe('Undo of a withdrawal', () => {
  it('restores the same approval: digest, key and date', async () => {
    const withdrawn = await approveAndWithdraw('api-client');
    expect(withdrawn.keyFingerprint).toMatch(/^SHA256:/);
    now += 60_000;
    expect(await undo(withdrawn)).toEqual({ ok: true });
    expect(await approvals()).toEqual([withdrawn]);
    const report = await ask<OriginReport>({ type: 'skillpin:report', origin: origin() });
    expect(report.skills.find((s) => s.url === withdrawn.url)?.approval.state).toBe('approved');
  });

  it('restores nothing when the content changed meanwhile', async () => {
    const withdrawn = await approveAndWithdraw('api-client');
    writePublisherSite(published.dir, { skills: DEMO_SKILLS.map((s) => (s.name === 'api-client' ? { ...s, body: 'Changed.\n' } : s)), seed: seed(1) });
    await probe();
    expect(await undo(withdrawn)).toMatchObject({ ok: false, error: 'digest-changed' });
    expect(await approvals()).toEqual([]);
  });

  it('restores nothing when the site key changed meanwhile, even after the new key was trusted', async () => {
    const withdrawn = await approveAndWithdraw('api-client');
    writePublisherSite(published.dir, { skills: DEMO_SKILLS, seed: seed(2) });
    const rotated = await probe();
    expect(rotated.key.state).toBe('changed');
    const trusted = await ask<ActionResult>({ type: 'skillpin:trust-key', origin: origin(), expectedFingerprint: rotated.key.pinned!.fingerprint, newFingerprint: rotated.key.offered!.fingerprint });
    expect(trusted).toEqual({ ok: true });
    expect(await undo(withdrawn)).toMatchObject({ ok: false, error: 'key-changed' });
    expect(await approvals()).toEqual([]);
  });

  it('a restore field of the wrong shape is refused as a malformed request', async () => {
    const withdrawn = await approveAndWithdraw('api-client');
    const bad = await ask<ActionResult>({
      type: 'skillpin:approve',
      origin: origin(),
      url: withdrawn.url,
      digestLf: withdrawn.digestLf,
      confirmUnverified: false,
      confirmCrossOrigin: false,
      restore: { keyFingerprint: 5, approvedAt: 'yesterday' },
    });
    expect(bad).toMatchObject({ ok: false, error: 'bad-request' });
  });
});

describe('the size shown is the size of what is inserted', () => {
  it('contextSize and tokens are those of the skill-context block Copy hands on, header lines included', async () => {
    const report = await probe();
    for (const skill of report.skills) {
      await ask<ActionResult>({ type: 'skillpin:approve', origin: origin(), url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    }
    const before = new Map(report.skills.map((s) => [s.url, s]));
    const after = await ask<OriginReport>({ type: 'skillpin:report', origin: origin() });
    for (const skill of after.skills) {
      const block = await ask<ContextResult>({ type: 'skillpin:skill-context', origin: origin(), url: skill.url });
      if (!block.ok) throw new Error(block.message);
      const bytes = new TextEncoder().encode(block.context);
      expect(skill.contextSize, skill.name).toBe(bytes.byteLength);
      expect(skill.tokens, skill.name).toBe(estimateTokenCount(bytes.byteLength));
      // More than the SKILL.md alone: the header lines (origin, URL, digests, signature, key, note) count.
      expect(skill.contextSize!).toBeGreaterThan(skill.size! + 300);
      // The same figure before the approval (the block would carry the same key then).
      expect(before.get(skill.url)?.tokens, skill.name).toBe(skill.tokens);
    }
  });
  it('with the short header the report, the library and the block sent agree, and the parts add up', async () => {
    const report = await probe();
    for (const skill of report.skills) {
      await ask<ActionResult>({ type: 'skillpin:approve', origin: origin(), url: skill.url, digestLf: skill.actual!.lf, confirmUnverified: false, confirmCrossOrigin: false });
    }
    const full = await ask<OriginReport>({ type: 'skillpin:report', origin: origin() });
    const updated = await ask<ActionResult>({ type: 'skillpin:settings-update', changes: { shortHeader: true } });
    expect(updated.ok).toBe(true);
    const short = await ask<OriginReport>({ type: 'skillpin:report', origin: origin() });
    const library = await ask<{ url: string; size: number | null; tokens: number | null }[]>({ type: 'skillpin:approved-list' });
    for (const skill of short.skills) {
      const block = await ask<ContextResult>({ type: 'skillpin:skill-context', origin: origin(), url: skill.url });
      if (!block.ok) throw new Error(block.message);
      expect(block.context).toContain(`Origin: ${origin()}`);
      expect(block.context).toContain('Key fingerprint: SHA256:');
      expect(block.context).not.toContain('SHA-256:');
      expect(block.context).not.toContain('Note:');
      const bytes = new TextEncoder().encode(block.context);
      expect(skill.contextSize, skill.name).toBe(bytes.byteLength);
      expect(skill.tokens, skill.name).toBe(estimateTokenCount(bytes.byteLength));
      expect(library.find((i) => i.url === skill.url)).toMatchObject({ size: bytes.byteLength, tokens: estimateTokenCount(bytes.byteLength) });
      // The parts: the skill, and the header the setting chose; the skill part is the SKILL.md.
      const parts = skill.contextParts!;
      expect(parts.skill + parts.shortHeader).toBe(bytes.byteLength);
      expect(parts.skill).toBe(skill.size);
      const before = full.skills.find((s) => s.url === skill.url)!;
      expect(before.contextSize).toBe(parts.skill + parts.header);
      expect(parts.shortHeader).toBeLessThan(parts.header);
    }
  });
});

describe('the badge follows a change of settings', () => {
  it('pausing from the options page: the open tab says "not checked" at once, resuming shows its skills again', async () => {
    await service.onNavigation(1, `${origin()}/`, false);
    expect(platform.badges.get(1)?.text).toBe('5');
    expect(await ask<ActionResult>({ type: 'skillpin:settings-update', changes: { paused: true } })).toMatchObject({ ok: true });
    await expect.poll(() => platform.badges.get(1)?.title).toMatch(/not checked/);
    expect(platform.badges.get(1)?.text).toBe('');
    expect(await ask<ActionResult>({ type: 'skillpin:settings-update', changes: { paused: false } })).toMatchObject({ ok: true });
    await expect.poll(() => platform.badges.get(1)?.text).toBe('5');
  });
});
