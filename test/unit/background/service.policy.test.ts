// The background under an organisation's policy, injected at the platform boundary
// (BackgroundPlatform.getManaged, what storage.managed.get answers in a browser): managed values
// win over the user's everywhere settings are read, cannot be changed by a Save or an import,
// signed-only approval is enforced, and an administrator's key cannot be replaced.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundService } from '../../../lib/background/service';
import { writeBackup } from '../../../lib/store/backup/write';
import { parseStateChange, STATE_CHANGE_KEY, type ActionResult, type ContextResult, type ImportPreview, type ImportResult, type PolicySummary } from '../../../lib/messages';
import { DEFAULT_SETTINGS, type OriginReport, type Settings } from '../../../lib/types';
import { fingerprint } from '../../../lib/verify/fingerprint';
import { startServer, type TestServer } from '../../support/server';
import { buildSite, keyPair } from '../../support/signed-sites';
import { POLICY_RETRY_MS, POLICY_SESSION_KEY } from '../../../lib/background/policy-cache';
import { FakePlatform, HANG, RulesPlatform } from './fake-platform';
import { OPTIONS_PAGE as PAGE, startService } from './service-harness';

const K = keyPair(81);
const OTHER = keyPair(82);

class PolicyPlatform extends FakePlatform {
  /** What managed storage holds; a function to make it fail. */
  managed: unknown = undefined;
  managedReads = 0;
  async getManaged() {
    this.managedReads++;
    if (this.managed instanceof Error) throw this.managed;
    return structuredClone(this.managed);
  }
}

let server: TestServer;
let platform: PolicyPlatform;
let service: BackgroundService;
const now = Date.parse('2026-11-29T12:00:00Z');

beforeEach(async () => {
  // alpha is signed (verified-signed), beta is listed without a signature (verified).
  server = await startServer({ files: buildSite({ skills: [{ name: 'alpha' }, { name: 'beta', signature: 'none' }], key: K }) });
  platform = new PolicyPlatform();
  service = await startService({ platform, name: 'policy-test', now: () => now });
});

afterEach(async () => {
  await server.close();
});

const ask = <T>(msg: Record<string, unknown>) => service.handleMessage(msg, PAGE) as Promise<T>;
const userSettings = async (): Promise<Settings> => (JSON.parse((await ask<{ json: string }>({ type: 'skillpin:backup' })).json) as { settings: Settings }).settings;

async function setPolicy(policy: unknown): Promise<void> {
  platform.managed = policy;
  await service.onManagedChanged();
}

function skillNamed(r: OriginReport, name: string) {
  const s = r.skills.find((k) => k.name === name);
  if (!s?.url || !s.actual) throw new Error(`no ${name}`);
  return { url: s.url, digestLf: s.actual.lf, status: s.status };
}

async function approve(origin: string, s: { url: string; digestLf: string }): Promise<ActionResult> {
  return ask({ type: 'skillpin:approve', origin, url: s.url, digestLf: s.digestLf, confirmUnverified: false, confirmCrossOrigin: false });
}

describe('managed settings', () => {
  it('settings-get answers the effective settings; policy-get says what is managed', async () => {
    await ask({ type: 'skillpin:settings-update', changes: { denyList: ['https://mine.example'], legacyIndex: false } });
    await setPolicy({ denyList: ['https://bank.example'], probing: false, requireSignedSkills: true, pinnedKeys: { [server.origin]: K.b64 }, bogus: 1 });
    expect(await ask({ type: 'skillpin:settings-get' })).toEqual({ ...DEFAULT_SETTINGS, legacyIndex: false, denyList: ['https://bank.example'], paused: true });
    expect(await ask<PolicySummary>({ type: 'skillpin:policy-get' })).toEqual({
      active: true,
      managedFields: ['paused', 'denyList'],
      requireSigned: true,
      pinnedKeys: [{ origin: server.origin, fingerprint: fingerprint(K.publicKey) }],
      invalid: ['bogus: not a Skillpin policy (ignored)'],
    });
    // The export carries the user's own values, not the organisation's.
    expect((await userSettings()).denyList).toEqual(['https://mine.example']);
  });

  it('without a policy nothing is managed', async () => {
    expect(await ask<PolicySummary>({ type: 'skillpin:policy-get' })).toEqual({ active: false, managedFields: [], requireSigned: false, pinnedKeys: [], invalid: [] });
  });

  it('settings-update: a change to a managed field is refused and nothing is written', async () => {
    await setPolicy({ denyList: ['https://bank.example'] });
    const before = await userSettings();
    const res = await ask<ActionResult>({ type: 'skillpin:settings-update', changes: { denyList: [], legacyIndex: false } });
    expect(res).toEqual({ ok: false, error: 'managed-setting', message: 'Your organisation manages these settings, so they cannot be changed here: Deny list.' });
    expect(await userSettings()).toEqual(before);
    // Unmanaged fields save; sending the managed value unchanged is no conflict and stores nothing for it.
    const ok = await ask<{ ok: boolean; settings: Settings }>({ type: 'skillpin:settings-update', changes: { legacyIndex: false, denyList: ['https://bank.example'] } });
    expect(ok.ok).toBe(true);
    expect(ok.settings).toMatchObject({ legacyIndex: false, denyList: ['https://bank.example'] });
    expect(await userSettings()).toEqual({ ...before, legacyIndex: false });
  });

  it('settings-set: refused when it changes a managed field; with the policy values it saves the rest', async () => {
    await ask({ type: 'skillpin:settings-update', changes: { allowList: ['https://mine.example'] } });
    await setPolicy({ allowList: ['https://corp.example'], allowListOnly: true });
    const eff = await ask<Settings>({ type: 'skillpin:settings-get' });
    const refused = await ask<ActionResult>({ type: 'skillpin:settings-set', settings: { ...eff, allowListOnly: false, allowList: [] } });
    expect(refused).toMatchObject({
      ok: false,
      error: 'managed-setting',
      message: 'Your organisation manages these settings, so they cannot be changed here: Allow list, Only sites on the allow list.',
    });
    expect(await ask({ type: 'skillpin:settings-set', settings: { ...eff, legacyIndex: false } })).toEqual({ ok: true });
    expect(await userSettings()).toMatchObject({ allowList: ['https://mine.example'], allowListOnly: false, legacyIndex: false });
    // When the policy goes away the user's own values apply again.
    await setPolicy(undefined);
    expect(await ask({ type: 'skillpin:settings-get' })).toMatchObject({ allowList: ['https://mine.example'], allowListOnly: false });
  });

  it('import: managed fields are left out with a notice, the others are imported; the preview marks them', async () => {
    await setPolicy({ chatSites: ['https://chat.corp.example'] });
    const file = writeBackup([], [], 1, { settings: { ...DEFAULT_SETTINGS, chatSites: ['http://127.0.0.1:9'], legacyIndex: false } });
    const preview = await ask<ImportPreview>({ type: 'skillpin:import-preview', json: file });
    expect(preview.settings).toEqual([
      { field: 'legacyIndex', current: 'true', imported: 'false' },
      { field: 'chatSites', current: '[]', imported: '["http://127.0.0.1:9"]', managed: true },
    ]);
    const res = await ask<ImportResult>({ type: 'skillpin:import', json: file });
    expect(res).toMatchObject({ ok: true, settingsApplied: true, settingsManaged: ['chatSites'] });
    expect(await userSettings()).toMatchObject({ chatSites: [], legacyIndex: false });
    expect(await ask({ type: 'skillpin:settings-get' })).toMatchObject({ chatSites: ['https://chat.corp.example'], legacyIndex: false });
  });

  it('probing off: navigation is not probed and a re-check is skipped as paused', async () => {
    await setPolicy({ probing: false });
    expect(await service.onNavigation(1, server.origin + '/', false)).toBeNull();
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'paused' });
    expect(server.log).toEqual([]);
  });

  it('a managed deny list applies to navigations, the user’s own list does not', async () => {
    await ask({ type: 'skillpin:settings-update', changes: { denyList: [server.origin] } });
    await setPolicy({ denyList: ['https://bank.example'] });
    const r = await service.onNavigation(1, server.origin + '/', false);
    expect(r?.state).toBe('done');
    await setPolicy({ denyList: [server.origin] });
    expect(await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin })).toMatchObject({ state: 'skipped', skippedBecause: 'deny-listed' });
  });

  it('managed chat sites feed the insert menu', async () => {
    await setPolicy({ chatSites: ['https://chat.corp.example'] });
    await service.refreshMenus();
    expect(platform.menus?.insertPatterns).toContain('https://chat.corp.example/*');
  });
});

describe('only verified-signed skills', () => {
  it('approve of a verified (unsigned) skill is refused with a clear error; a verified-signed one is approved', async () => {
    await setPolicy({ requireSignedSkills: true });
    const r = await service.probe(server.origin);
    const beta = skillNamed(r, 'beta');
    expect(beta.status).toBe('verified');
    expect(await approve(server.origin, beta)).toEqual({
      ok: false,
      error: 'policy-requires-signed',
      message: "Your organisation allows only skills that are checked and signed; this one is “Matches the site's checksum”.",
    });
    expect(await approve(server.origin, skillNamed(r, 'alpha'))).toEqual({ ok: true });
  });

  it('an approval made before the policy is not handed on while it applies', async () => {
    const r = await service.probe(server.origin);
    const beta = skillNamed(r, 'beta');
    expect(await approve(server.origin, beta)).toEqual({ ok: true });
    expect((await ask<ContextResult>({ type: 'skillpin:skill-context', origin: server.origin, url: beta.url })).ok).toBe(true);
    await setPolicy({ requireSignedSkills: true });
    expect(await ask({ type: 'skillpin:skill-context', origin: server.origin, url: beta.url })).toMatchObject({ ok: false, error: 'policy-requires-signed' });
    const listed = await ask<{ url: string; usable: boolean }[]>({ type: 'skillpin:approved-list' });
    expect(listed.find((a) => a.url === beta.url)?.usable).toBe(false);
  });
});

describe('a key the administrator pinned', () => {
  it('skills verify under it and approve; trust-key cannot replace it', async () => {
    await setPolicy({ pinnedKeys: { [server.origin]: K.b64 } });
    const r = await service.probe(server.origin);
    expect(r.key).toMatchObject({ state: 'match', pinnedBy: 'policy' });
    expect(await approve(server.origin, skillNamed(r, 'alpha'))).toEqual({ ok: true });
    const res = await ask<ActionResult>({ type: 'skillpin:trust-key', origin: server.origin, expectedFingerprint: null, newFingerprint: fingerprint(K.publicKey) });
    expect(res).toMatchObject({ ok: false, error: 'key-managed' });
  });

  it('another administrator key makes the site key-changed, naming the administrator’s key', async () => {
    await setPolicy({ pinnedKeys: { [server.origin]: OTHER.b64 } });
    const r = await service.probe(server.origin);
    expect(r.key).toMatchObject({ state: 'changed', pinnedBy: 'policy', pinned: { fingerprint: fingerprint(OTHER.publicKey) }, offered: { fingerprint: fingerprint(K.publicKey) } });
    expect(r.skills.every((s) => s.status === 'key-changed')).toBe(true);
  });
});

describe('reading the policy', () => {
  it('a change of managed storage is read again and announced to open pages as a settings change', async () => {
    expect((await ask<Settings>({ type: 'skillpin:settings-get' })).paused).toBe(false);
    platform.managed = { probing: false };
    // Kept until storage says it changed.
    expect((await ask<Settings>({ type: 'skillpin:settings-get' })).paused).toBe(false);
    await service.onManagedChanged();
    expect(parseStateChange(platform.local.get(STATE_CHANGE_KEY))?.kind).toBe('settings');
    expect((await ask<Settings>({ type: 'skillpin:settings-get' })).paused).toBe(true);
  });

  it('a policy that cannot be read is not taken as none: pages are told it is pending, and it is read again on the next request', async () => {
    platform.managed = new Error('storage broke');
    await service.onManagedChanged();
    expect(await ask<PolicySummary>({ type: 'skillpin:policy-get' })).toMatchObject({ pending: true, invalid: ["The organisation's settings could not be read (storage broke)."] });
    platform.managed = { denyList: ['https://bank.example'] };
    expect((await ask<Settings>({ type: 'skillpin:settings-get' })).denyList).toEqual(['https://bank.example']);
  });
});

describe('a policy that does not answer (it fails closed)', () => {
  /** A worker started while managed storage does not answer: nothing was read this session. */
  async function hungWorker(session?: unknown): Promise<{ svc: BackgroundService; p: RulesPlatform }> {
    const p = new RulesPlatform();
    p.managed = HANG;
    if (session !== undefined) p.session.set(POLICY_SESSION_KEY, session);
    const svc = await startService({ platform: p, name: `policy-hang-${Math.random()}`, now: () => now, policyWaitMs: 20 });
    return { svc, p };
  }

  it('nothing is probed and no key is pinned: the site the administrator pinned cannot pin the key it serves', async () => {
    const { svc } = await hungWorker();
    const before = server.log.length;
    expect(await svc.onNavigation(3, `${server.origin}/docs`, false)).toBeNull();
    expect(await svc.handleMessage({ type: 'skillpin:probe', origin: server.origin }, PAGE)).toMatchObject({ state: 'skipped', skippedBecause: 'policy-pending' });
    expect(server.log.length).toBe(before);
    expect(await svc.handleMessage({ type: 'skillpin:pins-list' }, PAGE)).toEqual([]);
  });

  it('nothing is approved, imported or saved while it is not known', async () => {
    const { svc } = await hungWorker();
    const approve = await svc.handleMessage(
      { type: 'skillpin:approve', origin: server.origin, url: `${server.origin}/skills/beta/SKILL.md`, digestLf: 'a'.repeat(64), confirmUnverified: true, confirmCrossOrigin: true },
      PAGE,
    );
    expect(approve).toMatchObject({ ok: false, error: 'policy-pending' });
    const json = writeBackup([{ origin: server.origin, key: K.b64, fingerprint: fingerprint(K.publicKey), firstSeen: 1, lastSeen: 1 }], [], 1);
    expect(await svc.handleMessage({ type: 'skillpin:import', json }, PAGE)).toMatchObject({ ok: false, pinsAdded: 0 });
    expect(await svc.handleMessage({ type: 'skillpin:settings-update', changes: { paused: true } }, PAGE)).toMatchObject({ ok: false, error: 'policy-pending' });
    expect(await svc.handleMessage({ type: 'skillpin:pins-list' }, PAGE)).toEqual([]);
  });

  it('the policy kept from earlier in this browser session applies meanwhile', async () => {
    const { svc } = await hungWorker({ raw: { pinnedKeys: { [server.origin]: OTHER.b64 }, denyList: ['https://bank.example'] } });
    const r = (await svc.handleMessage({ type: 'skillpin:probe', origin: server.origin }, PAGE)) as OriginReport;
    // The administrator's key decides: the served key K is not pinned.
    expect(r.key).toMatchObject({ state: 'changed', pinnedBy: 'policy' });
    expect(await svc.handleMessage({ type: 'skillpin:pins-list' }, PAGE)).toEqual([]);
    expect((await svc.handleMessage({ type: 'skillpin:settings-get' }, PAGE)) as Settings).toMatchObject({ denyList: ['https://bank.example'] });
  });
});

describe('a page loaded while the policy was not known', () => {
  it('is probed once the policy answers', async () => {
    const p = new RulesPlatform();
    p.managed = HANG;
    p.tabs = [{ id: 3, url: `${server.origin}/docs`, incognito: false }];
    let clock = now;
    const svc = await startService({ platform: p, name: `policy-late-${Math.random()}`, now: () => clock, policyWaitMs: 20 });
    expect(await svc.onNavigation(3, `${server.origin}/docs`, false)).toBeNull();
    const before = server.log.length;
    // Managed storage answers at last: the read is asked again after POLICY_RETRY_MS, and this one answers.
    p.managed = {};
    clock += POLICY_RETRY_MS;
    expect(await svc.handleMessage({ type: 'skillpin:policy-get' }, PAGE)).toMatchObject({ active: false });
    await svc.idle();
    expect(server.log.length).toBeGreaterThan(before);
    expect(await svc.handleMessage({ type: 'skillpin:report', origin: server.origin }, PAGE)).toMatchObject({ state: 'done' });
    expect(p.badges.get(3)?.text).not.toBe('');
  });

  it('refused for another rule once it is known: the badge says that rule, not that it waits', async () => {
    const p = new RulesPlatform();
    p.managed = HANG;
    let clock = now;
    const svc = await startService({ platform: p, name: `policy-late-deny-${Math.random()}`, now: () => clock, policyWaitMs: 20 });
    expect(await svc.onNavigation(3, `${server.origin}/docs`, false)).toBeNull();
    expect(p.badges.get(3)?.title).toMatch(/organisation/);
    p.managed = { denyList: ['127.0.0.1'] };
    clock += POLICY_RETRY_MS;
    await svc.handleMessage({ type: 'skillpin:policy-get' }, PAGE);
    await svc.idle();
    expect(p.badges.get(3)?.title).toMatch(/deny list/);
  });
});
