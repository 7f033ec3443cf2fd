// @vitest-environment happy-dom
// "Export for upload" in the popup: the button on an approved skill saves the ZIP the
// background built; a refusal shows one sentence per broken rule and saves nothing; a recorded
// export is marked out of date once the skill changed.
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import type { ExportStatus, SkillExportResult } from '../../../../lib/messages';
import { Popup } from '../../../../components/popup/Popup';
import type { PopupTarget } from '../../../../components/popup/target';
import { HEX_A, HEX_B, ORIGIN, approved, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { click, fakeBackground, mount, popupEnv, type Handlers } from '../harness';

const TARGET: PopupTarget = { kind: 'origin', origin: ORIGIN, tabId: 7, isChat: false };
const URL_A = `${ORIGIN}/skills/search/SKILL.md`;

function record(overrides: Partial<ExportStatus> = {}): ExportStatus {
  return {
    origin: ORIGIN,
    url: URL_A,
    name: 'search-docs',
    digestLf: HEX_A,
    digestRaw: HEX_A,
    keyFingerprint: null,
    archiveSha256: null,
    filesDigest: null,
    exportedAt: Date.UTC(2026, 10, 1),
    outOfDate: false,
    ...overrides,
  };
}

function setup(handlers: Handlers) {
  const bg = fakeBackground(handlers);
  const saved: { filename: string; bytes: Uint8Array; type: string }[] = [];
  const env = popupEnv(bg.client, { saveFile: (filename, bytes, type) => saved.push({ filename, bytes, type }) });
  return { bg, saved, render: () => mount(<Popup env={env} target={TARGET} />) };
}

const announcer = () => document.querySelector('[data-testid="announcer"]')?.textContent ?? '';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Export for upload', () => {
  it('is offered for approved skills only', async () => {
    const report = makeReport([approved(makeSkill()), makeSkill({ id: 'b', url: `${ORIGIN}/b/SKILL.md`, name: 'other' })]);
    const { render } = setup({ 'skillpin:report': () => report, 'skillpin:exports-list': () => [] });
    const root = await render();
    expect(root.querySelectorAll('[data-action="export"]')).toHaveLength(1);
    expect(root.querySelector(`[data-skill-url="${URL_A}"] [data-action="export"]`)).not.toBeNull();
  });

  it('saves the ZIP the background built, byte for byte, and says where to upload it', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80]);
    let exports: ExportStatus[] = [];
    const { render, saved, bg } = setup({
      'skillpin:report': () => makeReport([approved(makeSkill())]),
      'skillpin:exports-list': () => exports,
      'skillpin:skill-export': (): SkillExportResult => {
        exports = [record()];
        return { ok: true, filename: 'search-docs.zip', zipBase64: Buffer.from(zip).toString('base64'), size: zip.length, exportedAt: 1 };
      },
    });
    const root = await render();
    await click(root.querySelector('[data-action="export"]'));
    expect(bg.ofType('skillpin:skill-export')).toEqual([{ type: 'skillpin:skill-export', origin: ORIGIN, url: URL_A }]);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.filename).toBe('search-docs.zip');
    expect(saved[0]!.type).toBe('application/zip');
    expect([...saved[0]!.bytes]).toEqual([...zip]);
    expect(announcer()).toContain('Saved search-docs.zip');
    expect(root.querySelector('[data-testid="export-current"]')?.textContent).toContain('Exported for upload');
  });

  it('a refused skill shows each reason and saves nothing', async () => {
    const problems = ['The SKILL.md has no YAML frontmatter: it must start with a "---" line, then name and description, then "---".'];
    const { render, saved } = setup({
      'skillpin:report': () => makeReport([approved(makeSkill())]),
      'skillpin:exports-list': () => [],
      'skillpin:skill-export': (): SkillExportResult => ({ ok: false, error: 'preflight', message: problems[0]!, problems }),
    });
    const root = await render();
    await click(root.querySelector('[data-action="export"]'));
    expect(saved).toHaveLength(0);
    const shown = root.querySelector('[data-testid="export-problems"]');
    expect([...(shown?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual(problems);
    expect(announcer()).toContain('no YAML frontmatter');
  });

  it('marks the exported copy out of date once the content changed, and shows no export button until approved again', async () => {
    const changed = makeSkill({
      status: 'content-changed',
      actual: { raw: HEX_B, lf: HEX_B, matchedForm: 'raw' },
      approval: { state: 'suspended', approval: approved(makeSkill()).approval.approval, suspendedBecause: 'content-changed' },
    });
    const { render } = setup({ 'skillpin:report': () => makeReport([changed]), 'skillpin:exports-list': () => [record()] });
    const root = await render();
    expect(root.querySelector('[data-testid="export-outdated"]')?.textContent).toContain('is out of date');
    expect(root.querySelector('[data-action="export"]')).toBeNull();
  });

  it('an export of bytes the skill no longer has is out of date even when the skill is approved again', async () => {
    const reapproved = approved(makeSkill({ actual: { raw: HEX_B, lf: HEX_B, matchedForm: 'raw' } }));
    const { render } = setup({ 'skillpin:report': () => makeReport([reapproved]), 'skillpin:exports-list': () => [record()] });
    const root = await render();
    expect(root.querySelector('[data-testid="export-outdated"]')).not.toBeNull();
    expect(root.querySelector('[data-action="export"]')).not.toBeNull();
  });
});
