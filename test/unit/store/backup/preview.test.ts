// Import shows what it will add and asks first (PRODUCT.md §5): the preview lists pins, approvals,
// revocations and settings changes without writing; the import then takes only confirmed approvals
// of unverified or cross-host skills, never pins a revoked key, and carries revocations and settings.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeBackup } from '../../../../lib/store/backup/write';
import { importBackup } from '../../../../lib/store/backup/import';
import { previewImport } from '../../../../lib/store/backup/preview';
import type { TrustStore } from '../../../../lib/store/store-api';
import { DEFAULT_SETTINGS, type SkillReport, type SkillStatus } from '../../../../lib/types';
import { makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { freshStore, keyPair } from '../helpers';

const FIXTURE = readFileSync(new URL('../../../fixtures/trust/export-v1.json', import.meta.url), 'utf8');
const DOCS = 'https://docs.example.com';
const SEARCH = `${DOCS}/skills/search/SKILL.md`;
const UNSIGNED = 'https://unsigned.example.org';
const UNSIGNED_URL = 'https://cdn.example.net/skills/unsigned/SKILL.md';
const UNSIGNED_ID = `${UNSIGNED} ${UNSIGNED_URL}`;
/** The fixture claims this one verified-signed; a store that has not seen it asks the unverified confirmation. */
const SEARCH_ID = `${DOCS} ${SEARCH}`;
const NOW = 1_800_000_000_000;

type Doc = Record<string, unknown> & { pins: Record<string, unknown>[]; approvals: Record<string, unknown>[] };
const fixtureDoc = (): Doc => JSON.parse(FIXTURE) as Doc;

/** Everything the store holds that an import may touch, to compare before and after. */
async function snapshot(store: TrustStore): Promise<string> {
  return JSON.stringify([await store.listPins(), await store.listApprovals(), await store.listKeyHistory(), await store.getSettings()]);
}

describe('previewImport', () => {
  it('lists what the fixture would add, with the confirmations the popup would ask, and writes nothing', async () => {
    const { store } = await freshStore();
    const before = await snapshot(store);
    const preview = await previewImport(store, FIXTURE);
    expect(preview.ok).toBe(true);
    expect(preview.pins.map((p) => [p.origin, p.outcome])).toEqual([
      [DOCS, 'add'],
      ['http://127.0.0.1:8080', 'add'],
    ]);
    expect(preview.pins[0]?.fingerprint).toBe(fixtureDoc().pins[0]?.fingerprint);
    expect(preview.approvals.map((a) => [a.id, a.outcome, a.needs])).toEqual([
      [SEARCH_ID, 'add', { unverified: true, crossOrigin: false }],
      [UNSIGNED_ID, 'add', { unverified: true, crossOrigin: true }],
    ]);
    expect(preview.revocations).toEqual([]);
    expect(preview.settings).toBeNull();
    expect(await snapshot(store)).toBe(before);
  });

  it('shows conflicts, revoked keys, stored approvals and settings changes against the store', async () => {
    const { store } = await freshStore();
    const mine = keyPair(42);
    await store.pinIfAbsent(DOCS, mine.key, mine.fingerprint, 5);
    const doc = fixtureDoc();
    const local = doc.pins[1] as { origin: string; fingerprint: string };
    doc.version = 2;
    doc.revocations = [{ origin: local.origin, fingerprint: local.fingerprint, revokedAt: 7 }];
    doc.settings = { paused: true, denyList: ['https://bad.example'], legacyIndex: DEFAULT_SETTINGS.legacyIndex };
    const preview = await previewImport(store, JSON.stringify(doc));
    expect(preview.pins.map((p) => [p.origin, p.outcome, p.stored])).toEqual([
      [DOCS, 'conflict', mine.fingerprint],
      [local.origin, 'revoked', null],
    ]);
    expect(preview.approvals.map((a) => a.outcome)).toEqual(['pin-conflict', 'add']);
    expect(preview.revocations).toEqual([{ origin: local.origin, fingerprint: local.fingerprint, outcome: 'add' }]);
    // Only the fields that change are listed.
    expect(preview.settings).toEqual([
      { field: 'paused', current: 'false', imported: 'true' },
      { field: 'denyList', current: '[]', imported: '["https://bad.example"]' },
    ]);
  });

  it.each([
    ['not JSON', 'nope'],
    ['another format', JSON.stringify({ ...fixtureDoc(), format: 'other' })],
    ['a bad revocation', JSON.stringify({ ...fixtureDoc(), version: 2, revocations: [{ origin: DOCS, fingerprint: 'MD5:x', revokedAt: 1 }] })],
    ['settings of the wrong type', JSON.stringify({ ...fixtureDoc(), version: 2, settings: { paused: 'yes' } })],
  ])('%s: a clear error, nothing listed and nothing written', async (_label, text) => {
    const { store } = await freshStore();
    const before = await snapshot(store);
    const preview = await previewImport(store, text);
    expect(preview.ok).toBe(false);
    expect(preview.errors.length).toBeGreaterThan(0);
    expect(preview.pins).toEqual([]);
    expect(preview.approvals).toEqual([]);
    const result = await importBackup(store, text, NOW, { confirmUnverified: [UNSIGNED_ID], confirmCrossOrigin: [UNSIGNED_ID] });
    expect(result.ok).toBe(false);
    expect(await snapshot(store)).toBe(before);
  });
});

describe('importBackup confirmations', () => {
  it('without confirmations an approval of an unverified, cross-host skill is not imported', async () => {
    const { store } = await freshStore();
    const result = await importBackup(store, FIXTURE, NOW, { confirmUnverified: [SEARCH_ID] });
    expect(result.ok).toBe(true);
    expect(result.approvalsAdded).toBe(1);
    expect(result.approvalsSkipped).toEqual([{ origin: UNSIGNED, url: UNSIGNED_URL, reason: 'needs-confirmation' }]);
    expect(await store.getApproval(UNSIGNED, UNSIGNED_URL)).toBeNull();
    expect(await store.getApproval(DOCS, SEARCH)).not.toBeNull();
  });

  it('each confirmation is needed: unverified alone or cross-host alone is not enough', async () => {
    for (const confirmations of [{ confirmUnverified: [SEARCH_ID, UNSIGNED_ID] }, { confirmUnverified: [SEARCH_ID], confirmCrossOrigin: [UNSIGNED_ID] }]) {
      const { store } = await freshStore();
      const result = await importBackup(store, FIXTURE, NOW, confirmations);
      expect(result.approvalsSkipped).toEqual([{ origin: UNSIGNED, url: UNSIGNED_URL, reason: 'needs-confirmation' }]);
      expect(await store.getApproval(UNSIGNED, UNSIGNED_URL)).toBeNull();
    }
    const { store } = await freshStore();
    const both = await importBackup(store, FIXTURE, NOW, { confirmUnverified: [SEARCH_ID, UNSIGNED_ID], confirmCrossOrigin: [UNSIGNED_ID] });
    expect(both.approvalsAdded).toBe(2);
    expect(await store.getApproval(UNSIGNED, UNSIGNED_URL)).not.toBeNull();
  });
});

describe('revocations and settings in the export', () => {
  it('round-trip: the revoked key stays revoked in the other browser and its pin is not imported', async () => {
    const { store } = await freshStore();
    const a = keyPair(1);
    const b = keyPair(2);
    await store.pinIfAbsent(DOCS, a.key, a.fingerprint, 10);
    await store.pinIfAbsent('https://b.example', b.key, b.fingerprint, 10);
    await store.revokeKey(DOCS, a.fingerprint, 20);
    const settings = { ...DEFAULT_SETTINGS, paused: true, chatSites: ['https://chat.example'] };
    const json = writeBackup(await store.listPins(), await store.listApprovals(), 30, { keys: await store.listKeyHistory(), settings });
    const doc = JSON.parse(json) as Doc;
    expect(doc.version).toBe(3);
    expect(doc.revocations).toEqual([{ origin: DOCS, fingerprint: a.fingerprint, revokedAt: 20 }]);

    const { store: target } = await freshStore();
    const result = await importBackup(target, json, 40);
    expect(result).toMatchObject({ ok: true, pinsAdded: 1, revocationsAdded: 1, settingsApplied: true, pinsRevoked: [{ origin: DOCS, fingerprint: a.fingerprint }] });
    expect(await target.getPin(DOCS)).toBeNull();
    expect((await target.pinIfAbsent(DOCS, a.key, a.fingerprint, 50)).result).toBe('revoked');
    expect(await target.getSettings()).toMatchObject({ paused: true, chatSites: ['https://chat.example'] });
  });

  it('a version 1 file (no revocations, no settings) still imports and leaves the settings alone', async () => {
    const { store } = await freshStore();
    await store.putSettings({ ...DEFAULT_SETTINGS, paused: true });
    const result = await importBackup(store, FIXTURE, NOW);
    expect(result).toMatchObject({ ok: true, settingsApplied: false, revocationsAdded: 0 });
    expect((await store.getSettings()).paused).toBe(true);
  });

  it('fields a file leaves out keep their current value', async () => {
    const { store } = await freshStore();
    await store.putSettings({ ...DEFAULT_SETTINGS, denyList: ['https://mine.example'] });
    const doc = { ...fixtureDoc(), version: 2, settings: { paused: true } };
    await importBackup(store, JSON.stringify(doc), NOW);
    expect(await store.getSettings()).toMatchObject({ paused: true, denyList: ['https://mine.example'] });
  });
});

describe('an import judges from what this browser has seen, not from what the file claims', () => {
  const SEARCH_LF = 'a8f52ec08f5f20c47745fadce5427c6352e47fe12b66eadb55504f8dbeb91a2e';
  /** The origin's report as a probe here would have stored it: the search skill with these bytes and status. */
  async function seen(store: TrustStore, status: SkillStatus, lf = SEARCH_LF, overrides: Partial<SkillReport> = {}) {
    const skill = makeSkill({ url: SEARCH, status, actual: { raw: lf, lf, matchedForm: 'raw' }, ...overrides });
    await store.putReport(makeReport([skill], { origin: DOCS }));
  }

  it('a crafted file that claims "verified" for a skill this browser never verified needs the unverified confirmation', async () => {
    const { store } = await freshStore();
    const doc = fixtureDoc();
    (doc.approvals[0] as Record<string, unknown>).statusAtApproval = 'verified';
    (doc.approvals[0] as Record<string, unknown>).keyFingerprint = null;
    const json = JSON.stringify(doc);
    const preview = await previewImport(store, json);
    expect(preview.approvals[0]).toMatchObject({ id: SEARCH_ID, needs: { unverified: true, crossOrigin: false } });
    const result = await importBackup(store, json, NOW, { confirmCrossOrigin: [UNSIGNED_ID] });
    expect(result.approvalsSkipped).toContainEqual({ origin: DOCS, url: SEARCH, reason: 'needs-confirmation' });
    expect(await store.getApproval(DOCS, SEARCH)).toBeNull();
  });

  it.each<[string, SkillStatus, string, boolean]>([
    ['verified-signed with the same bytes', 'verified-signed', SEARCH_LF, false],
    ['verified with the same bytes', 'verified', SEARCH_LF, false],
    ['verified with other bytes', 'verified', 'f'.repeat(64), true],
    ['unverified with the same bytes', 'unverified', SEARCH_LF, true],
    ['digest-mismatch', 'digest-mismatch', SEARCH_LF, true],
  ])('a report showing the skill %s: unverified confirmation needed = %s', async (_label, status, lf, needed) => {
    const { store } = await freshStore();
    await seen(store, status, lf);
    const preview = await previewImport(store, FIXTURE);
    expect(preview.approvals.find((a) => a.id === SEARCH_ID)?.needs.unverified).toBe(needed);
    const result = await importBackup(store, FIXTURE, NOW, CROSS_ONLY);
    expect((await store.getApproval(DOCS, SEARCH)) !== null).toBe(!needed);
    if (needed) expect(result.approvalsSkipped).toContainEqual({ origin: DOCS, url: SEARCH, reason: 'needs-confirmation' });
  });

  it('a skill this browser saw served by another host needs the cross-host confirmation, whatever its URL says', async () => {
    const { store } = await freshStore();
    await seen(store, 'verified-signed', SEARCH_LF, { crossOrigin: true, artifactHost: 'cdn.example.net' });
    expect((await previewImport(store, FIXTURE)).approvals.find((a) => a.id === SEARCH_ID)?.needs).toEqual({ unverified: false, crossOrigin: true });
    await importBackup(store, FIXTURE, NOW, CROSS_ONLY);
    expect(await store.getApproval(DOCS, SEARCH)).toBeNull();
  });

  it('under requireSignedSkills only an approval this browser saw verified-signed is imported', async () => {
    const { store } = await freshStore();
    await seen(store, 'verified-signed');
    const policy = { requireSigned: true };
    const preview = await previewImport(store, FIXTURE, [], policy);
    expect(preview.approvals.map((a) => [a.id, a.outcome])).toEqual([
      [SEARCH_ID, 'add'],
      [UNSIGNED_ID, 'policy-requires-signed'],
    ]);
    const all = { confirmUnverified: [SEARCH_ID, UNSIGNED_ID], confirmCrossOrigin: [UNSIGNED_ID] };
    const result = await importBackup(store, FIXTURE, NOW, all, [], policy);
    expect(result.approvalsSkipped).toEqual([{ origin: UNSIGNED, url: UNSIGNED_URL, reason: 'policy-requires-signed' }]);
    expect(await store.getApproval(DOCS, SEARCH)).not.toBeNull();
  });

  it('a pin other than the one the administrator pinned is never imported, nor the approvals of that origin', async () => {
    const { store } = await freshStore();
    const admin = keyPair(99);
    const policy = { pinnedKeys: [{ origin: DOCS, fingerprint: admin.fingerprint }] };
    const preview = await previewImport(store, FIXTURE, [], policy);
    expect(preview.pins.find((p) => p.origin === DOCS)).toMatchObject({ outcome: 'conflict', stored: admin.fingerprint });
    expect(preview.approvals.find((a) => a.id === SEARCH_ID)?.outcome).toBe('pin-conflict');
    const result = await importBackup(store, FIXTURE, NOW, { confirmUnverified: [SEARCH_ID, UNSIGNED_ID], confirmCrossOrigin: [UNSIGNED_ID] }, [], policy);
    expect(result.pinConflicts).toContainEqual({ origin: DOCS, stored: admin.fingerprint, imported: fixtureDoc().pins[0]?.fingerprint });
    expect(await store.getPin(DOCS)).toBeNull();
    expect(await store.getApproval(DOCS, SEARCH)).toBeNull();
  });

  it('a publisher name in the file is shown as every publisher string is: capped, controls visible', async () => {
    const { store } = await freshStore();
    const doc = fixtureDoc();
    (doc.approvals[0] as Record<string, unknown>).name = `evil\u202Egnp.exe${'x'.repeat(200)}`;
    const preview = await previewImport(store, JSON.stringify(doc));
    const name = preview.approvals[0]?.name ?? '';
    expect(name).toContain('[U+202E]');
    expect(name).not.toContain('\u202E');
    // 80 code points of the name (the one control counted once, shown as its 8-character form), then the ellipsis.
    expect([...name].length).toBe(80 + 7 + 1);
    expect(name.endsWith('…')).toBe(true);
  });
});

const CROSS_ONLY = { confirmCrossOrigin: [UNSIGNED_ID] };

describe('archive approvals in the preview', () => {
  it('an approval of the same SKILL.md but other files is different, not unchanged (as the import judges it)', async () => {
    const { store } = await freshStore();
    const url = 'https://a.example/r.zip';
    const files = (sha: string) => [{ path: 'run.sh', size: 3, sha256: sha.repeat(64) }];
    const { fileSetDigest } = await import('../../../../lib/verify/file-set');
    const approval = (sha: string) => ({
      origin: 'https://a.example',
      url,
      digestLf: 'a'.repeat(64),
      digestRaw: 'a'.repeat(64),
      keyFingerprint: null,
      statusAtApproval: 'verified' as const,
      name: 'r',
      approvedAt: 1,
      archive: { filesDigest: fileSetDigest(files(sha)), sha256: 'd'.repeat(64), files: files(sha) },
    });
    expect(await store.importApproval(approval('b'))).toBe('added');
    expect((await previewImport(store, writeBackup([], [approval('b')], 1))).approvals[0]?.outcome).toBe('unchanged');
    expect((await previewImport(store, writeBackup([], [approval('c')], 1))).approvals[0]?.outcome).toBe('different');
  });
});
