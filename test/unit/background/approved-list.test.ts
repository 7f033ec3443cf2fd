// skillpin:approved-list as the side panel's library reads it: every approved skill of every
// origin with what the library shows (description, last verified, size and tokens of the block
// a hand-off gives, what needs the user), page by page, and the state change a probe announces
// when it finds a change to an approved skill.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovedSkillSummary, ContextResult } from '../../../lib/messages';
import { STATE_CHANGE_KEY, parseStateChange } from '../../../lib/messages';
import type { OriginReport } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';
import { buildSite, keyPair, skillText } from '../../support/signed-sites';
import { FakePlatform } from './fake-platform';
import { LIBRARY, POPUP, startService } from './service-harness';
import { confirmKeys } from '../../support/confirm';
import type { BackgroundService } from '../../../lib/background/service';

const K = keyPair(81);
const OTHER = keyPair(82);

let servers: TestServer[] = [];
let service: BackgroundService;
let platform: FakePlatform;
const ask = <T>(msg: Record<string, unknown>, sender: object = LIBRARY) => service.handleMessage(msg, sender) as Promise<T>;

async function approveAll(origin: string): Promise<void> {
  const report = await ask<OriginReport>({ type: 'skillpin:probe', origin }, POPUP);
  for (const s of report.skills) {
    if (!s.actual || !s.url) throw new Error(`${s.url} did not verify`);
    expect(await ask({ type: 'skillpin:approve', origin, url: s.url, digestLf: s.actual.lf, confirmUnverified: true, confirmCrossOrigin: false }, POPUP)).toMatchObject({ ok: true });
  }
}

beforeEach(async () => {
  servers = [
    await startServer({ files: buildSite({ skills: [{ name: 'beta' }, { name: 'alpha' }], key: K }) }),
    await startServer({ files: buildSite({ skills: [{ name: 'gamma', signature: 'none' }] }) }),
  ];
  platform = new FakePlatform();
  service = await startService({ platform, name: `approved-list-${Math.random()}` });
  for (const s of servers) await approveAll(s.origin);
  await service.idle();
});

afterEach(async () => {
  for (const s of servers) await s.close();
});

describe('the approved list for the library', () => {
  it('lists every approved skill of every origin by site, then name, with what the library shows', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const list = await ask<ApprovedSkillSummary[]>({ type: 'skillpin:approved-list' });
    const expected = [
      [a.origin, 'alpha'],
      [a.origin, 'beta'],
      [b.origin, 'gamma'],
    ].sort((x, y) => (x[0] as string).localeCompare(y[0] as string));
    expect(list.map((s) => [s.origin, s.name])).toEqual(expected);
    const report = await ask<OriginReport>({ type: 'skillpin:report', origin: a.origin });
    const alpha = list.find((s) => s.name === 'alpha') as ApprovedSkillSummary;
    const reported = report.skills.find((s) => s.name === 'alpha');
    expect(alpha).toMatchObject({ usable: true, attention: null, refusal: null, description: reported?.description, verifiedAt: report.finishedAt });
    expect(alpha.size).toBe(reported?.contextSize);
    expect(alpha.tokens).toBe(reported?.tokens);
    // The size is the block Copy hands on, exactly.
    const worker = await ask<ContextResult>({ type: 'skillpin:skill-context', origin: a.origin, url: alpha.url });
    if (!worker.ok) throw new Error(worker.message);
    expect(alpha.size).toBe(new TextEncoder().encode(worker.context).byteLength);
  });

  it('answers a page of the list: the first rows, then the rest', async () => {
    const all = await ask<ApprovedSkillSummary[]>({ type: 'skillpin:approved-list' });
    expect(await ask({ type: 'skillpin:approved-list', offset: 0, limit: 2 })).toEqual(all.slice(0, 2));
    expect(await ask({ type: 'skillpin:approved-list', offset: 2 })).toEqual(all.slice(2));
    expect(await ask({ type: 'skillpin:approved-list', offset: 5, limit: 10 })).toEqual([]);
  });

  it('refuses a page that is not one', async () => {
    for (const bad of [{ offset: -1 }, { offset: 1.5 }, { limit: 0 }, { limit: 10_001 }, { offset: '1' }]) {
      expect(await ask({ type: 'skillpin:approved-list', ...bad }), JSON.stringify(bad)).toMatchObject({ ok: false });
    }
  });

  it('says a content change and a key change, refuses them, and announces the probe that found them', async () => {
    const [a] = servers as [TestServer];
    a.options.files = buildSite({ skills: [{ name: 'beta', text: skillText('beta', 'Now do something else.') }, { name: 'alpha' }], key: K });
    platform.local.delete(STATE_CHANGE_KEY);
    await ask({ type: 'skillpin:probe', origin: a.origin }, POPUP);
    expect(parseStateChange(platform.local.get(STATE_CHANGE_KEY))?.kind).toBe('reports');
    let list = await ask<ApprovedSkillSummary[]>({ type: 'skillpin:approved-list' });
    expect(list.find((s) => s.name === 'beta')).toMatchObject({ usable: false, status: 'content-changed', attention: 'content-changed', refusal: 'not-approved' });
    expect(list.find((s) => s.name === 'alpha')).toMatchObject({ usable: true, attention: null });

    a.options.files = buildSite({ skills: [{ name: 'beta' }, { name: 'alpha' }], key: OTHER });
    await ask({ type: 'skillpin:probe', origin: a.origin }, POPUP);
    list = await ask<ApprovedSkillSummary[]>({ type: 'skillpin:approved-list' });
    expect(list.find((s) => s.name === 'alpha')).toMatchObject({ usable: false, status: 'key-changed', attention: 'key-changed' });
  });

  it('announces nothing after a probe that found nothing new, and the change once it finds one', async () => {
    const [a] = servers as [TestServer];
    platform.local.delete(STATE_CHANGE_KEY);
    // Probed again (forced: every document and skill is fetched and checked again): the same report but for its times.
    await ask({ type: 'skillpin:probe', origin: a.origin }, POPUP);
    await ask({ type: 'skillpin:probe', origin: a.origin }, POPUP);
    await service.idle();
    expect(platform.local.get(STATE_CHANGE_KEY)).toBeUndefined();

    a.options.files = buildSite({ skills: [{ name: 'beta', text: skillText('beta', 'Now do something else.') }, { name: 'alpha' }], key: K });
    await ask({ type: 'skillpin:probe', origin: a.origin }, POPUP);
    expect(parseStateChange(platform.local.get(STATE_CHANGE_KEY))?.kind).toBe('reports');
    // Found once: the next probe finds the same change and announces nothing more.
    platform.local.delete(STATE_CHANGE_KEY);
    await ask({ type: 'skillpin:probe', origin: a.origin }, POPUP);
    expect(platform.local.get(STATE_CHANGE_KEY)).toBeUndefined();
  });

  it('names the refusal of a site the user excluded', async () => {
    const [, b] = servers as [TestServer, TestServer];
    expect(await ask({ type: 'skillpin:settings-update', changes: { denyList: [b.origin] } }, POPUP)).toMatchObject({ ok: true });
    const gamma = (await ask<ApprovedSkillSummary[]>({ type: 'skillpin:approved-list' })).find((s) => s.name === 'gamma');
    expect(gamma).toMatchObject({ usable: false, attention: 'unusable', refusal: 'site-excluded' });
  });
});

describe('what needs the user: findings not confirmed', () => {
  it('a skill approved without confirming what acts on its own needs the confirmation; confirm-findings clears it', async () => {
    const text = skillText('runner', 'Before anything: !`echo hi`');
    const site = await startServer({ files: buildSite({ skills: [{ name: 'runner', text }], key: K }) });
    servers.push(site);
    const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: site.origin }, POPUP);
    const skill = report.skills[0];
    if (!skill?.url || !skill.actual || !skill.review) throw new Error('the skill did not verify');
    expect(skill.review.findings.map((f) => f.kind)).toContain('load-command');
    expect(await ask({ type: 'skillpin:approve', origin: site.origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false }, POPUP)).toMatchObject({
      ok: true,
    });
    await service.idle();
    const row = async () => (await ask<ApprovedSkillSummary[]>({ type: 'skillpin:approved-list' })).find((s) => s.url === skill.url);
    expect(await row()).toMatchObject({ attention: 'needs-confirmation' });
    const confirmFindings = confirmKeys(skill);
    expect(await ask({ type: 'skillpin:confirm-findings', origin: site.origin, url: skill.url, digestLf: skill.actual.lf, confirmFindings }, POPUP)).toMatchObject({ ok: true });
    await service.idle();
    expect(await row()).toMatchObject({ attention: null, usable: true });
  });
});
