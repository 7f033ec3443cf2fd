// "Export for upload" in real Chromium (issue 9): approve in the popup → Export → the downloaded
// file unzips to the verified bytes; a skill without frontmatter shows its reason and downloads
// nothing; after the publisher changes the content, the popup marks the export out of date.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { test, expect, send, waitForReport } from './support/extension';
import { startPublisher, seed } from './support/sites';
import type { OriginReport } from '../../lib/types';
import type { ExportStatus } from '../../lib/messages';

const fixture = (name: string) => readFileSync(join('test/fixtures/export', name), 'utf8');
const SKILLS = [
  { name: 'pdf-processing', description: 'Extract PDF text, fill forms, merge files. Use when handling PDFs.', raw: fixture('spec-with-optional-fields.SKILL.md') },
  { name: 'site-facts', description: 'Facts about the site.', raw: fixture('no-frontmatter-site-facts.SKILL.md') },
];

test('approve → export → the download unzips to the verified bytes; no frontmatter: a reason and no file; a content change marks the export out of date', async ({ context, extPage, extensionId }) => {
  const site = await startPublisher({ seed: seed(41), skills: SKILLS });
  try {
    const page = await context.newPage();
    await page.goto(site.origin + '/');
    const report = await waitForReport<OriginReport>(extPage, site.origin);
    expect(report.skills.map((s) => s.status)).toEqual(['verified-signed', 'verified-signed']);

    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(site.origin)}`);
    const pdf = popup.locator('[data-skill-url$="/skills/pdf-processing/SKILL.md"]');
    const facts = popup.locator('[data-skill-url$="/skills/site-facts/SKILL.md"]');
    await pdf.getByRole('button', { name: /^approve$/i }).click();
    await expect(pdf.locator('[data-action="export"]')).toBeVisible();

    // Export: a download the click starts, holding exactly pdf-processing/SKILL.md with the served bytes.
    const served = readFileSync(join(site.dir, 'skills/pdf-processing/SKILL.md'));
    const [download] = await Promise.all([popup.waitForEvent('download'), pdf.locator('[data-action="export"]').click()]);
    expect(download.suggestedFilename()).toBe('pdf-processing.zip');
    const path = await download.path();
    const files = unzipSync(new Uint8Array(readFileSync(path)));
    expect(Object.keys(files)).toEqual(['pdf-processing/SKILL.md']);
    expect(Buffer.from(files['pdf-processing/SKILL.md']!).equals(served)).toBe(true);
    await expect(pdf.getByTestId('export-current')).toBeVisible();

    // A skill without frontmatter: approved, but the export says why and no file comes.
    await facts.getByRole('button', { name: /^approve$/i }).click();
    let downloads = 0;
    popup.on('download', () => (downloads += 1));
    await facts.locator('[data-action="export"]').click();
    await expect(facts.getByTestId('export-problems')).toContainText('no YAML frontmatter');
    await popup.waitForTimeout(1000);
    expect(downloads).toBe(0);

    // The publisher changes the approved content: the popup marks the exported copy out of date.
    site.republish({ seed: seed(41), skills: [{ ...SKILLS[0]!, raw: SKILLS[0]!.raw + '\nAlso rotate scanned pages.\n' }, SKILLS[1]!] });
    const after = await send<OriginReport>(extPage, { type: 'skillpin:probe', origin: site.origin });
    expect(after.skills.find((s) => s.url?.endsWith('/pdf-processing/SKILL.md'))?.status).toBe('content-changed');
    await popup.reload();
    await expect(pdf.getByTestId('export-outdated')).toContainText('out of date');
    await expect(pdf.locator('[data-action="export"]')).toHaveCount(0);
    const list = await send<ExportStatus[]>(extPage, { type: 'skillpin:exports-list' });
    expect(list.map((e) => [e.name, e.outOfDate])).toEqual([['pdf-processing', true]]);
  } finally {
    await site.close();
  }
});
