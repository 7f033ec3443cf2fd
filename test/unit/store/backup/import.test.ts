import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeBackup } from '../../../../lib/store/backup/write';
import { importBackup } from '../../../../lib/store/backup/import';
import type { Approval, ArchiveBinding, Pin } from '../../../../lib/types';
import { fileSetDigest } from '../../../../lib/verify/file-set';
import { fingerprint } from '../../../../lib/verify/fingerprint';
import { decodeBase64Strict } from '../../../../lib/verify/base64';
import { approvalFor, freshStore, keyPair, makeSkill, plant } from '../helpers';

const FIXTURE = readFileSync(new URL('../../../fixtures/trust/export-v1.json', import.meta.url), 'utf8');
const DOCS = 'https://docs.example.com';
const NOW = 1_800_000_000_000;

type Doc = { format: string; version: number; exportedAt: number; pins: Record<string, unknown>[]; approvals: Record<string, unknown>[] };
const fixtureDoc = (): Doc => JSON.parse(FIXTURE) as Doc;
/** The fixture's second approval is of an unverified skill hosted on another host: the popup asks twice. */
const UNSIGNED_ID = 'https://unsigned.example.org https://cdn.example.net/skills/unsigned/SKILL.md';
/**
 * The fixture's first approval claims verified-signed, but a fresh store has seen neither skill: the
 * claim is not taken (PRODUCT.md §5), so both need the unverified confirmation.
 */
const SEARCH_ID = 'https://docs.example.com https://docs.example.com/skills/search/SKILL.md';
const CONFIRMED = { confirmUnverified: [SEARCH_ID, UNSIGNED_ID], confirmCrossOrigin: [UNSIGNED_ID] };

/** An archive approval's binding as version 3 writes it (the digest computed from the files). */
function archiveBinding(path = 'scripts/run.sh'): ArchiveBinding {
  const files = [{ path, size: 14, sha256: 'c'.repeat(64) }];
  return { filesDigest: fileSetDigest(files), sha256: 'd'.repeat(64), files };
}

describe('the export fixture', () => {
  it('carries keys whose fingerprints are right', () => {
    for (const pin of fixtureDoc().pins) {
      const bytes = decodeBase64Strict(pin.key as string);
      expect(bytes).not.toBeNull();
      expect(fingerprint(bytes as Uint8Array)).toBe(pin.fingerprint);
    }
  });
});

describe('writeBackup', () => {
  it('writes the documented format, sorted, with known fields only', () => {
    const a = keyPair(1);
    const pins: Pin[] = [
      { origin: 'https://z.example', key: a.key, fingerprint: a.fingerprint, firstSeen: 1, lastSeen: 2 },
      { origin: 'https://a.example', key: a.key, fingerprint: a.fingerprint, firstSeen: 3, lastSeen: 4, extra: true } as Pin,
    ];
    const skill = makeSkill('https://a.example', 'https://a.example/SKILL.md', 'x', 5);
    const json = writeBackup(pins, [approvalFor(skill, null)], 1234);
    const doc = JSON.parse(json) as Doc;
    expect(doc.format).toBe('skillpin-trust');
    expect(doc.version).toBe(3);
    expect(doc.exportedAt).toBe(1234);
    expect(doc.pins.map((p) => p.origin)).toEqual(['https://a.example', 'https://z.example']);
    expect(Object.keys(doc.pins[0] ?? {})).toEqual(['origin', 'key', 'fingerprint', 'firstSeen', 'lastSeen']);
    expect(doc.approvals).toEqual([approvalFor(skill, null)]);
  });

  it('round-trips through importBackup into an empty store', async () => {
    const { store } = await freshStore();
    const a = keyPair(1);
    await store.pinIfAbsent('https://a.example', a.key, a.fingerprint, 10);
    const skill = makeSkill('https://a.example', 'https://a.example/s/SKILL.md', 'x', 11);
    await store.approve(approvalFor(skill, a.fingerprint), skill);
    const json = writeBackup(await store.listPins(), await store.listApprovals(), 20);

    const { store: target } = await freshStore();
    // The other browser has not seen the skill: its approval is imported as the user confirms it.
    const confirmed = { confirmUnverified: ['https://a.example https://a.example/s/SKILL.md'] };
    const result = await importBackup(target, json, 30, confirmed);
    expect(result).toMatchObject({ ok: true, pinsAdded: 1, pinsUnchanged: 0, pinConflicts: [], approvalsAdded: 1, errors: [] });
    expect(await target.getPin('https://a.example')).toMatchObject({ key: a.key, fingerprint: a.fingerprint, firstSeen: 30 });
    expect(await target.listApprovals()).toEqual(await store.listApprovals());
    // Importing the same file again changes nothing.
    const again = await importBackup(target, json, 40, confirmed);
    expect(again).toMatchObject({ ok: true, pinsAdded: 0, pinsUnchanged: 1, approvalsAdded: 0, approvalsUnchanged: 1 });
    expect((await target.getPin('https://a.example'))?.lastSeen).toBe(30);
  });
});

describe('importBackup', () => {
  it('imports the fixture file', async () => {
    const { store } = await freshStore();
    const result = await importBackup(store, FIXTURE, NOW, CONFIRMED);
    expect(result).toEqual({
      ok: true,
      pinsAdded: 2,
      pinsUnchanged: 0,
      pinConflicts: [],
      approvalsAdded: 2,
      approvalsUnchanged: 0,
      approvalsSkipped: [],
      pinsRevoked: [],
      revocationsAdded: 0,
      changedOrigins: ['http://127.0.0.1:8080', 'https://docs.example.com', 'https://unsigned.example.org'],
      settingsApplied: false,
      errors: [],
    });
    expect((await store.listPins()).map((p) => p.origin).sort()).toEqual(['http://127.0.0.1:8080', DOCS]);
    expect((await store.getApproval(DOCS, `${DOCS}/skills/search/SKILL.md`))?.keyFingerprint).toBe(fixtureDoc().pins[0]?.fingerprint);
  });

  it('never replaces a different pin: reports the conflict and skips that origin’s approvals', async () => {
    const { store } = await freshStore();
    const mine = keyPair(42);
    await store.pinIfAbsent(DOCS, mine.key, mine.fingerprint, 5);
    const result = await importBackup(store, FIXTURE, NOW, CONFIRMED);
    expect(result.ok).toBe(true);
    expect(result.pinConflicts).toEqual([{ origin: DOCS, stored: mine.fingerprint, imported: fixtureDoc().pins[0]?.fingerprint }]);
    expect(result.pinsAdded).toBe(1);
    expect(result.approvalsAdded).toBe(1);
    expect(result.approvalsSkipped).toEqual([{ origin: DOCS, url: `${DOCS}/skills/search/SKILL.md`, reason: 'pin-conflict' }]);
    expect(await store.getPin(DOCS)).toMatchObject({ fingerprint: mine.fingerprint, firstSeen: 5 });
    expect(await store.getApprovals(DOCS)).toEqual([]);
  });

  it('keeps a different stored approval and reports it', async () => {
    const { store } = await freshStore();
    const skill = makeSkill('https://unsigned.example.org', 'https://cdn.example.net/skills/unsigned/SKILL.md', 'mine', 1);
    await store.approve(approvalFor(skill, null), skill);
    const result = await importBackup(store, FIXTURE, NOW, CONFIRMED);
    expect(result.approvalsSkipped).toEqual([{ origin: 'https://unsigned.example.org', url: 'https://cdn.example.net/skills/unsigned/SKILL.md', reason: 'different-approval' }]);
    expect((await store.getApproval(skill.origin, skill.url))?.digestLf).toBe(skill.digestLf);
  });

  it('skips an approval that names a key other than the origin’s pin', async () => {
    const { store } = await freshStore();
    const doc = fixtureDoc();
    const other = keyPair(77);
    (doc.approvals[0] as Record<string, unknown>).keyFingerprint = other.fingerprint;
    const result = await importBackup(store, JSON.stringify(doc), NOW, CONFIRMED);
    expect(result.ok).toBe(true);
    expect(result.approvalsSkipped).toEqual([{ origin: DOCS, url: `${DOCS}/skills/search/SKILL.md`, reason: 'pin-mismatch' }]);
    expect(await store.getApproval(DOCS, `${DOCS}/skills/search/SKILL.md`)).toBeNull();
  });

  const malformed: [string, (d: Doc) => unknown][] = [
    ['a fingerprint that does not match its key', (d) => ((d.pins[0] as Record<string, unknown>).fingerprint = keyPair(3).fingerprint)],
    ['a key that is not strict base64', (d) => ((d.pins[0] as Record<string, unknown>).key = 'AwoRGB8mLTQ7QklQV15lbHN6gYiPlp2kq7K5wMfO1dw')],
    ['a key of the wrong length', (d) => ((d.pins[0] as Record<string, unknown>).key = 'AAAA')],
    ['a key with spaces around it', (d) => ((d.pins[0] as Record<string, unknown>).key = ` ${String(d.pins[0]?.key)}`)],
    ['an origin with a path', (d) => ((d.pins[1] as Record<string, unknown>).origin = 'https://docs.example.com/x')],
    ['a non-http origin', (d) => ((d.pins[1] as Record<string, unknown>).origin = 'ftp://docs.example.com')],
    ['a negative time', (d) => ((d.pins[1] as Record<string, unknown>).firstSeen = -1)],
    ['lastSeen before firstSeen', (d) => ((d.pins[0] as Record<string, unknown>).lastSeen = 0)],
    ['two pins for one origin', (d) => d.pins.push({ ...d.pins[0] })],
    ['an uppercase digest', (d) => ((d.approvals[0] as Record<string, unknown>).digestLf = String(d.approvals[0]?.digestLf).toUpperCase())],
    ['a short digest', (d) => ((d.approvals[0] as Record<string, unknown>).digestRaw = 'abc')],
    ['a status that cannot be approved', (d) => ((d.approvals[0] as Record<string, unknown>).statusAtApproval = 'digest-mismatch')],
    ['an unknown status', (d) => ((d.approvals[0] as Record<string, unknown>).statusAtApproval = 'fine')],
    ['a malformed key fingerprint', (d) => ((d.approvals[0] as Record<string, unknown>).keyFingerprint = 'MD5:abc')],
    ['a URL with a fragment', (d) => ((d.approvals[0] as Record<string, unknown>).url = `${DOCS}/SKILL.md#top`)],
    ['a relative URL', (d) => ((d.approvals[0] as Record<string, unknown>).url = '/SKILL.md')],
    ['a missing name', (d) => delete (d.approvals[0] as Record<string, unknown>).name],
    ['two approvals for one skill', (d) => d.approvals.push({ ...d.approvals[0] })],
    ['an approval that is not an object', (d) => d.approvals.push(null as unknown as Record<string, unknown>)],
    ['pins that are not a list', (d) => ((d as unknown as Record<string, unknown>).pins = {})],
    ['another format', (d) => (d.format = 'other')],
    ['another version', (d) => (d.version = 4)],
    ['an archive binding that is not an object', (d) => ((d.approvals[0] as Record<string, unknown>).archive = 'files')],
    ['an archive binding whose digest does not match its files', (d) => ((d.approvals[0] as Record<string, unknown>).archive = { ...archiveBinding(), filesDigest: 'e'.repeat(64) })],
    ['an archive file outside the folder', (d) => ((d.approvals[0] as Record<string, unknown>).archive = archiveBinding('../run.sh'))],
    ['an archive file listed twice', (d) => ((d.approvals[0] as Record<string, unknown>).archive = { ...archiveBinding(), files: [...archiveBinding().files, ...archiveBinding().files] })],
    ['an archive file with an upper-case digest', (d) => ((d.approvals[0] as Record<string, unknown>).archive = { ...archiveBinding(), files: [{ path: 'run.sh', size: 3, sha256: 'C'.repeat(64) }] })],
    ['a missing exportedAt', (d) => delete (d as unknown as Record<string, unknown>).exportedAt],
  ];

  it.each(malformed)('%s: ok false with errors, nothing written', async (_label, damage) => {
    const { store } = await freshStore();
    const doc = fixtureDoc();
    damage(doc);
    const result = await importBackup(store, JSON.stringify(doc), NOW);
    expect(result.ok).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.pinsAdded + result.approvalsAdded).toBe(0);
    expect(await store.listPins()).toEqual([]);
    expect(await store.listApprovals()).toEqual([]);
  });

  it.each(['', 'not json', '{"format":', '[]', 'null', '42', '"skillpin-trust"'])('malformed text %j: ok false, nothing written', async (text) => {
    const { store } = await freshStore();
    const result = await importBackup(store, text, NOW);
    expect(result.ok).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(await store.listPins()).toEqual([]);
  });

  it('a store failure on one pin is reported and its approvals are not imported', async () => {
    const { store, factory, name } = await freshStore();
    await plant(factory, name, 'pins', { origin: DOCS, key: 1 });
    const result = await importBackup(store, FIXTURE, NOW, CONFIRMED);
    expect(result.ok).toBe(false);
    expect(result.errors.join('\n')).toMatch(/corrupt-record/);
    expect(result.pinsAdded).toBe(1);
    expect(result.approvalsSkipped).toEqual([{ origin: DOCS, url: `${DOCS}/skills/search/SKILL.md`, reason: 'pin-conflict' }]);
  });

  it('an approval list entry from an export has exactly the Approval fields after import', async () => {
    const { store } = await freshStore();
    const doc = fixtureDoc();
    (doc.approvals[1] as Record<string, unknown>).note = 'extra';
    await importBackup(store, JSON.stringify(doc), NOW, CONFIRMED);
    const stored = (await store.getApproval('https://unsigned.example.org', 'https://cdn.example.net/skills/unsigned/SKILL.md')) as Approval;
    expect(Object.keys(stored).sort()).toEqual(['approvedAt', 'digestLf', 'digestRaw', 'keyFingerprint', 'name', 'origin', 'statusAtApproval', 'url']);
  });
});

describe('archive approvals (version 3)', () => {
  const ZIP = 'https://a.example/skills/runner.zip';
  // No report of the site in this store: the import takes the skill for unverified and asks for that confirmation.
  const OK = { confirmUnverified: [`https://a.example ${ZIP}`] };
  const archiveApproval = (): Approval => ({
    origin: 'https://a.example',
    url: ZIP,
    digestLf: 'a'.repeat(64),
    digestRaw: 'a'.repeat(64),
    keyFingerprint: null,
    statusAtApproval: 'verified',
    name: 'runner',
    approvedAt: 5,
    archive: archiveBinding(),
  });

  it('exports the file set an archive approval binds and imports it back whole', async () => {
    const json = writeBackup([], [archiveApproval()], 10);
    const doc = JSON.parse(json) as Doc;
    expect(doc.approvals[0]?.archive).toEqual(archiveBinding());
    const { store } = await freshStore();
    expect(await importBackup(store, json, 20, OK)).toMatchObject({ ok: true, approvalsAdded: 1 });
    expect(await store.getApproval('https://a.example', ZIP)).toEqual(archiveApproval());
    // The same file again: unchanged. Another file set for the same skill: a different approval, kept as it is.
    expect(await importBackup(store, json, 30, OK)).toMatchObject({ ok: true, approvalsAdded: 0, approvalsUnchanged: 1 });
    const other = { ...archiveApproval(), archive: archiveBinding('scripts/other.sh') };
    expect((await importBackup(store, writeBackup([], [other], 40), 50, OK)).approvalsSkipped).toEqual([{ origin: 'https://a.example', url: ZIP, reason: 'different-approval' }]);
    expect(await store.getApproval('https://a.example', ZIP)).toEqual(archiveApproval());
  });

  it('a file of version 2 (no file set) still imports; its archive approval binds no files', async () => {
    const { archive: _, ...old } = archiveApproval();
    const doc = { format: 'skillpin-trust', version: 2, exportedAt: 1, pins: [], approvals: [old], revocations: [] };
    const { store } = await freshStore();
    expect(await importBackup(store, JSON.stringify(doc), 20, OK)).toMatchObject({ ok: true, approvalsAdded: 1 });
    expect((await store.getApproval('https://a.example', ZIP))?.archive).toBeUndefined();
  });
});
