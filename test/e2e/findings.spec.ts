// What a skill can do, end to end in Chromium (PRODUCT.md §6.1): a publisher on 127.0.0.1 serves an
// archive skill whose SKILL.md runs `!`echo hi`` as it loads and which carries a script. The card
// says both in words before anything else; Approve opens the one confirmation naming them and the
// places the skill may go; Cancel leaves it unapproved; confirming approves it, with what it
// confirmed recorded; Copy then hands the skill on. The card, the details and the confirmation pass
// axe in both themes.
import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { startServer } from '../support/server';
import { test, expect, send, waitForReport } from './support/extension';
import { axeViolations } from './support/axe';
import { confirmation } from './support/approve';
import type { Approval, OriginReport } from '../../lib/types';

const enc = new TextEncoder();
const SKILL_MD = '---\nname: greeter\ndescription: Greets the user from the shell.\n---\n\n# Greeter\n\nToday: !`echo hi`\n\nThen run scripts/run.sh.\n';
const SCRIPT = '#!/bin/sh\necho "hello from the greeter"\n';

function site(): Record<string, string | Uint8Array> {
  const zip = zipSync({ 'SKILL.md': enc.encode(SKILL_MD), 'scripts/run.sh': enc.encode(SCRIPT) });
  const digest = createHash('sha256').update(zip).digest('hex');
  return {
    '/index.html': '<!doctype html><title>Greeter</title><p>A site with a skill that acts.</p>',
    '/skills/greeter.zip': zip,
    '/.well-known/agent-skills/index.json': JSON.stringify({
      skills: [{ name: 'greeter', type: 'archive', description: 'Greets the user from the shell.', url: '/skills/greeter.zip', digest: `sha256:${digest}` }],
    }),
  };
}

test('a skill that acts: the card says so, the one confirmation names it, Cancel approves nothing, confirming approves it and Copy works', async ({ context, extPage, extensionId }) => {
  test.setTimeout(120_000);
  const server = await startServer({ files: site() });
  try {
    const page = await context.newPage();
    await page.goto(server.origin + '/index.html');
    const report = await waitForReport<OriginReport>(extPage, server.origin);
    const skill = report.skills[0];
    expect(skill?.status).toBe('verified');
    expect(skill?.review?.findings.map((f) => f.kind)).toEqual(expect.arrayContaining(['load-command', 'executable']));
    const url = skill?.url as string;

    const popup = await context.newPage();
    await popup.setViewportSize({ width: 400, height: 600 });
    await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(server.origin)}`);
    const card = popup.locator(`[data-skill-url="${url}"]`);
    const lines = card.getByTestId('card-findings');
    await expect(lines.locator('.finding-line').first()).toHaveAttribute('data-kind', 'load-command');
    await expect(lines.locator('[data-kind="load-command"]')).toContainText('Acts on its own');
    await expect(lines.locator('[data-kind="load-command"]')).toContainText('Runs commands as soon as it is loaded');
    await expect(lines.locator('[data-kind="executable"]')).toContainText('Carries a script that can run on your computer');
    await expect(card).not.toContainText(/\bsafe\b/i);
    // A line opens to its file and line, the matched text highlighted.
    await lines.locator('[data-kind="load-command"] summary').click();
    await expect(lines.locator('[data-kind="load-command"] .finding-place').first()).toHaveText(/^SKILL\.md, line \d+$/);
    await expect(lines.locator('[data-kind="load-command"] mark').first()).toContainText('echo hi');

    const found: Record<string, unknown> = {};
    const check = async (name: string) => {
      for (const theme of ['light', 'dark'] as const) {
        const v = await axeViolations(popup, theme);
        if (v.length) found[`${name} (${theme})`] = v;
      }
    };
    await check('card with findings');

    // Approve asks first; Cancel approves nothing.
    await card.getByRole('button', { name: /^approve$/i }).click();
    const dialog = confirmation(popup);
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('[data-kind="load-command"]')).toContainText('Runs commands as soon as it is loaded');
    await expect(dialog.locator('[data-kind="load-command"]')).toContainText('SKILL.md');
    await expect(dialog.locator('[data-kind="executable"]')).toContainText('scripts/run.sh');
    await expect(dialog.locator('[data-place]')).toHaveCount(3);
    await expect(dialog).toContainText('Export for upload');
    await check('the confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await popup.waitForTimeout(300);
    const still = await send<OriginReport>(extPage, { type: 'skillpin:report', origin: server.origin });
    expect(still.skills[0]?.approval.state).toBe('none');

    // Approve and allow: approved, with both findings confirmed.
    await card.getByRole('button', { name: /^approve$/i }).click();
    await dialog.getByRole('button', { name: 'Approve and allow' }).click();
    await expect(card.locator('[data-action="copy"]')).toBeVisible();
    const approvals = await send<Approval[]>(extPage, { type: 'skillpin:approvals-list' });
    const approval = approvals.find((a) => a.url === url);
    expect(approval?.review?.confirmed).toHaveLength(skill?.review?.findings.filter((f) => f.severity !== 'look').length ?? -1);
    await expect(card.getByTestId('needs-confirmation')).toHaveCount(0);

    // Copy hands it on now.
    await card.locator('[data-action="copy"]').click();
    await expect(popup.getByTestId('announcer')).toContainText('Copied the context of “greeter” to the clipboard.');
    await expect.poll(() => popup.evaluate(() => navigator.clipboard.readText().catch(() => ''))).toContain('Today: !`echo hi`');

    // The details say what it can do, by severity, and mark the archive's files.
    await card.locator('[data-action="details"]').click();
    const section = popup.getByTestId('findings');
    await expect(section.locator('.findings-severity').first()).toHaveAttribute('data-severity', 'acts');
    await expect(popup.locator('[data-testid="archive-files"] [data-file="scripts/run.sh"] .file-findings')).toContainText('Can act');
    await check('details with findings');
    expect(found).toEqual({});
  } finally {
    await server.close();
  }
});
