// Export records: when an exported copy is out of date, what a stored list yields, and the
// change notification's sentence about it.
import { describe, expect, it } from 'vitest';
import { isExportOutOfDate, MAX_EXPORT_RECORDS, parseExportRecords, withExport, type ExportRecord } from '../../../lib/export/record';
import { notificationFor } from '../../../lib/background/notify';
import { FP_NEW, FP_OLD, HEX_A, HEX_B, ORIGIN, approved, makeReport, makeSkill } from '../../fixtures/ui/reports';

const URL_A = `${ORIGIN}/skills/search/SKILL.md`;
const rec = (o: Partial<ExportRecord> = {}): ExportRecord => ({
  origin: ORIGIN,
  url: URL_A,
  name: 'search-docs',
  digestLf: HEX_A,
  digestRaw: HEX_A,
  keyFingerprint: null,
  archiveSha256: null,
  filesDigest: null,
  exportedAt: 1,
  ...o,
});

describe('isExportOutOfDate', () => {
  it('is current while the approved bytes are the exported ones', () => {
    expect(isExportOutOfDate(rec(), approved(makeSkill()))).toBe(false);
  });
  it('is out of date once the skill is content-changed or key-changed', () => {
    expect(isExportOutOfDate(rec(), makeSkill({ status: 'content-changed' }))).toBe(true);
    expect(isExportOutOfDate(rec(), makeSkill({ status: 'key-changed' }))).toBe(true);
  });
  it('is out of date when newer bytes, another archive or another key were approved since', () => {
    expect(isExportOutOfDate(rec(), approved(makeSkill({ actual: { raw: HEX_B, lf: HEX_B, matchedForm: 'raw' } })))).toBe(true);
    expect(isExportOutOfDate(rec({ archiveSha256: HEX_A }), approved(makeSkill({ archive: { format: 'zip', entries: [], sha256: HEX_B } })))).toBe(true);
    const signed = approved(makeSkill({ status: 'verified-signed' }));
    signed.approval.approval = { ...signed.approval.approval!, keyFingerprint: FP_NEW };
    expect(isExportOutOfDate(rec({ keyFingerprint: FP_OLD }), signed)).toBe(true);
  });
  it('an archive: the same files are the same export, whatever the archive digest; other files are not', () => {
    const archive = (sha256: string, filesDigest: string) => ({ format: 'zip' as const, entries: [], sha256, filesDigest });
    expect(isExportOutOfDate(rec({ archiveSha256: HEX_A, filesDigest: HEX_A }), approved(makeSkill({ archive: archive(HEX_B, HEX_A) })))).toBe(false);
    expect(isExportOutOfDate(rec({ archiveSha256: HEX_A, filesDigest: HEX_A }), approved(makeSkill({ archive: archive(HEX_A, HEX_B) })))).toBe(true);
    // A record of an older version has no file set: the archive digest decides.
    expect(parseExportRecords([{ ...rec({ archiveSha256: HEX_A }), filesDigest: undefined }])).toEqual([rec({ archiveSha256: HEX_A, filesDigest: null })]);
  });
  it('does not mark a skill the report no longer lists', () => {
    expect(isExportOutOfDate(rec(), null)).toBe(false);
  });
});

describe('stored records', () => {
  it('keeps the well-formed records of a damaged list and nothing else', () => {
    expect(parseExportRecords('junk')).toEqual([]);
    expect(parseExportRecords([rec(), { ...rec(), digestLf: 'zz' }, null, 7])).toEqual([rec()]);
  });
  it('keeps one export per skill, the newest, and a bounded list', () => {
    expect(withExport([rec({ exportedAt: 1 })], rec({ exportedAt: 2 }))).toEqual([rec({ exportedAt: 2 })]);
    const many = Array.from({ length: MAX_EXPORT_RECORDS }, (_, i) => rec({ url: `${ORIGIN}/${i}` }));
    const out = withExport(many, rec({ url: `${ORIGIN}/new` }));
    expect(out).toHaveLength(MAX_EXPORT_RECORDS);
    expect(out[out.length - 1]?.url).toBe(`${ORIGIN}/new`);
    expect(out[0]?.url).toBe(`${ORIGIN}/1`);
  });
});

describe('the change notification', () => {
  const changed = makeSkill({ status: 'content-changed', approval: { state: 'suspended', approval: approved(makeSkill()).approval.approval, suspendedBecause: 'content-changed' } });
  it('says the exported copy is out of date, and keeps its key (one notification per change)', () => {
    const plain = notificationFor(makeReport([changed]));
    const withExportNote = notificationFor(makeReport([changed]), [rec()]);
    expect(plain?.message).not.toContain('exported');
    expect(withExportNote?.message).toContain('The copy of search-docs you exported for upload is out of date; export it again after review.');
    expect(withExportNote?.key).toBe(plain?.key);
  });
  it('does so for a key change too', () => {
    const report = makeReport([makeSkill({ status: 'key-changed', approval: changed.approval })], {
      key: { state: 'changed', pinned: null, offered: { key: 'k', fingerprint: FP_NEW, source: 'index' }, conflicting: null },
    });
    expect(notificationFor(report, [rec()])?.message).toMatch(/different key.*exported for upload is out of date/);
  });
});
