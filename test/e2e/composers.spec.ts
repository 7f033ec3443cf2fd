// The hand-off into the composers the chat sites run, built from the real editor
// libraries (test/e2e/composers), in headless Chromium with the built extension. Each
// page is served at its site's own host name, so the extension's adapter table and
// content-script patterns choose it as they would choose the live site. What counts is
// the editor's own model (ProseMirror doc, Quill getText, Lexical state, React state):
// every line of the skill context, in order, with its leading spaces, once; the caret
// after it; no send; no attachment chip.
import type { BrowserContext, Page } from '@playwright/test';
import { expect, send, tabIdOf, waitForReport } from './support/extension';
import { composerState, lineDiff, openComposer, test } from './support/composers';
import { HANDOFF_SKILL } from './support/handoff-skill';
import { startPublisher, seed } from './support/sites';
import type { OriginReport } from '../../lib/types';
import type { ActionResult, ContextResult, InsertResult } from '../../lib/messages';
import { COMPOSER_PAGES } from './composers/catalogue';
import { clickMenuItem } from './support/listeners';
import { insertItemId } from '../../lib/background/menus';

interface Approved {
  origin: string;
  url: string;
  context: string;
  close(): Promise<void>;
}

async function approveHandoffSkill(context: BrowserContext, extPage: Page, seedByte: number): Promise<Approved> {
  const site = await startPublisher({ seed: seed(seedByte), skills: [HANDOFF_SKILL] });
  const page = await context.newPage();
  await page.goto(site.origin + '/');
  const report = await waitForReport<OriginReport>(extPage, site.origin);
  const skill = report.skills.find((s) => s.name === HANDOFF_SKILL.name);
  if (!skill?.url || !skill.actual) throw new Error('the hand-off skill is missing from the report');
  expect(skill.status).toBe('verified-signed');
  const approved = await send<ActionResult>(extPage, { type: 'skillpin:approve', origin: site.origin, url: skill.url, digestLf: skill.actual.lf, confirmUnverified: false, confirmCrossOrigin: false });
  expect(approved.ok).toBe(true);
  const ctx = await send<ContextResult>(extPage, { type: 'skillpin:skill-context', origin: site.origin, url: skill.url });
  if (!ctx.ok) throw new Error(ctx.message);
  await page.close();
  return { origin: site.origin, url: skill.url, context: ctx.context, close: () => site.close() };
}

async function insertVia(extPage: Page, tabId: number, chatOrigin: string, skill: Approved): Promise<InsertResult> {
  return send<InsertResult>(extPage, { type: 'skillpin:insert', tabId, chatOrigin, origin: skill.origin, url: skill.url });
}

const REAL_EDITORS = COMPOSER_PAGES.filter((p) => p.id !== 'chatgpt-truncates');

for (const spec of REAL_EDITORS) {
  test(`${spec.id}: the skill context arrives line for line, once, caret after it, nothing sent (${spec.editor})`, async ({ context, sw, extPage, composers }) => {
    const skill = await approveHandoffSkill(context, extPage, 40);
    try {
      const chat = await context.newPage();
      await openComposer(chat, composers, spec.id);
      const result = await insertVia(extPage, await tabIdOf(sw, chat), composers.origin(spec), skill);
      expect(result, result.message).toMatchObject({ ok: true });
      const state = await composerState(chat);
      expect(state.model, lineDiff(state.model, skill.context)).toBe(skill.context);
      expect(state).toMatchObject({ sends: 0, attachments: 0, caretAtEnd: true });
      // Still there once the editor had time to settle (no late revert).
      await chat.waitForTimeout(300);
      expect((await composerState(chat)).model).toBe(skill.context);
    } finally {
      await skill.close();
    }
  });
}

for (const id of ['chatgpt', 'claude', 'gemini', 'perplexity', 'deepseek']) {
  test(`${id}: what the user typed stays, the block goes on the lines after it`, async ({ context, sw, extPage, composers }) => {
    const skill = await approveHandoffSkill(context, extPage, 41);
    try {
      const chat = await context.newPage();
      const spec = await openComposer(chat, composers, id);
      // Typed for real (trusted key events), as a user would before inserting.
      await chat
        .locator(id === 'deepseek' ? 'textarea' : '[contenteditable="true"]:not(.edit-mode *)')
        .last()
        .click();
      await chat.keyboard.type('Please use this:');
      expect((await composerState(chat)).model).toBe('Please use this:');
      const result = await insertVia(extPage, await tabIdOf(sw, chat), composers.origin(spec), skill);
      expect(result, result.message).toMatchObject({ ok: true });
      const state = await composerState(chat);
      const want = `Please use this:\n${skill.context}`;
      expect(state.model, lineDiff(state.model, want)).toBe(want);
      expect(state).toMatchObject({ sends: 0, attachments: 0 });
    } finally {
      await skill.close();
    }
  });
}

test('a composer that drops text is put back as it was, the skill goes to the clipboard, and the page says so', async ({ context, sw, extPage, composers }) => {
  const skill = await approveHandoffSkill(context, extPage, 42);
  try {
    const chat = await context.newPage();
    const spec = await openComposer(chat, composers, 'chatgpt-truncates');
    await chat.locator('#prompt-textarea').click();
    await chat.keyboard.type('Draft');
    // A user clicks Insert some time after typing: past the editor's history grouping (500 ms).
    await chat.waitForTimeout(700);
    const result = await insertVia(extPage, await tabIdOf(sw, chat), composers.origin(spec), skill);
    expect(result.ok).toBe(false);
    expect(result.method).toBe('clipboard');
    expect(result.message).toMatch(/left as it was/);
    expect(result.message).toMatch(/clipboard/);
    const state = await composerState(chat);
    // As it was: the draft only, no partial block, no paste turned into an attachment, nothing sent.
    expect(state).toMatchObject({ model: 'Draft', sends: 0, attachments: 0 });
    await expect(chat.locator('skillpin-notice')).toHaveCount(1);
    // The clipboard holds the block, written by the extension (offscreen document), not by the page.
    const clip = await extPage.evaluate(() => navigator.clipboard.readText());
    expect(clip).toBe(skill.context);
  } finally {
    await skill.close();
  }
});

test('a chat tab that navigated away gets nothing, and the user is told', async ({ context, sw, extPage, composers }) => {
  const skill = await approveHandoffSkill(context, extPage, 43);
  const other = await startPublisher({ seed: seed(44) });
  try {
    const chat = await context.newPage();
    const spec = await openComposer(chat, composers, 'chatgpt');
    const tabId = await tabIdOf(sw, chat);
    const chatOrigin = composers.origin(spec);

    // To a page that is not a chat site.
    await chat.goto(other.origin + '/');
    let result = await insertVia(extPage, tabId, chatOrigin, skill);
    expect(result).toMatchObject({ ok: false, method: 'none' });
    expect(result.message).toContain(`now shows ${other.origin} instead of ${chatOrigin}`);
    expect(await chat.evaluate(() => document.body.innerText)).not.toContain('Skill context');
    await expect(chat.locator('skillpin-notice')).toHaveCount(0);

    // To another chat site: still not the one the popup offered.
    const claude = await openComposer(chat, composers, 'claude');
    result = await insertVia(extPage, tabId, chatOrigin, skill);
    expect(result).toMatchObject({ ok: false, method: 'none' });
    expect(result.message).toContain(`instead of ${chatOrigin}`);
    expect((await composerState(chat)).model).toBe('');

    // Offered as what it is now, it takes the skill.
    result = await insertVia(extPage, tabId, composers.origin(claude), skill);
    expect(result.ok).toBe(true);
  } finally {
    await skill.close();
    await other.close();
  }
});

test('the popup inserts into the open ChatGPT composer with its own button', async ({ context, extPage, extensionId, composers }) => {
  const skill = await approveHandoffSkill(context, extPage, 45);
  try {
    const chat = await context.newPage();
    await openComposer(chat, composers, 'chatgpt');
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html?origin=${encodeURIComponent(skill.origin)}`);
    await popup.locator(`[data-skill-url="${skill.url}"]`).first().getByRole('button', { name: 'Insert into chat' }).click();
    await expect(popup.getByText(/send it yourself|Nothing was sent/).first()).toBeVisible();
    const state = await composerState(chat);
    expect(state.model, lineDiff(state.model, skill.context)).toBe(skill.context);
    expect(state).toMatchObject({ sends: 0, attachments: 0 });
  } finally {
    await skill.close();
  }
});

test('right click "Insert skill context" in the Claude composer inserts there (the menu listener, frame 0)', async ({ context, sw, extPage, composers }) => {
  const skill = await approveHandoffSkill(context, extPage, 46);
  try {
    const chat = await context.newPage();
    await openComposer(chat, composers, 'claude');
    const tabId = await tabIdOf(sw, chat);
    const itemId = insertItemId(skill.origin, skill.url);
    await expect
      .poll(() =>
        sw.evaluate(
          (id) =>
            chrome.contextMenus.update(id, {}).then(
              () => true,
              () => false,
            ),
          itemId,
        ),
      )
      .toBe(true);
    await clickMenuItem(sw, { menuItemId: itemId, tabId, frameId: 0, editable: true });
    await expect.poll(async () => (await composerState(chat)).model).not.toBe('');
    const state = await composerState(chat);
    expect(state.model, lineDiff(state.model, skill.context)).toBe(skill.context);
    expect(state.sends).toBe(0);
  } finally {
    await skill.close();
  }
});

test('on every real-editor page the adapter finds the editor itself, by one selector that matches exactly one element', async ({ context, composers }) => {
  const { CHAT_ADAPTERS } = await import('../../lib/chat/adapters');
  const rows: string[] = [];
  const page = await context.newPage();
  for (const spec of COMPOSER_PAGES) {
    await openComposer(page, composers, spec.id);
    const adapter = CHAT_ADAPTERS.find((a) => a.id === spec.adapter);
    const row = await page.evaluate(
      ({ selectors, exclude }) => {
        const root = window.composerTest.editorRoot();
        for (const selector of selectors) {
          const all = Array.from(document.querySelectorAll(selector)).filter((el) => !exclude.some((x) => el.closest(x) !== null));
          if (all.length > 0) return { selector, count: all.length, isEditor: all[0] === root };
        }
        return { selector: null, count: 0, isEditor: false };
      },
      { selectors: adapter?.composer.map((c) => c.selector) ?? [], exclude: adapter?.exclude ?? [] },
    );
    rows.push(`${spec.id}: ${row.selector} ×${row.count}${row.isEditor ? '' : ' (NOT the editor)'}`);
  }
  console.log(rows.join('\n'));
  expect(
    rows.filter((r) => !/ ×1$/.test(r)),
    rows.join('\n'),
  ).toEqual([]);
});

test('the test composers turn a long paste into an attachment, as the sites do (why Skillpin never pastes)', async ({ context, composers }) => {
  const page = await context.newPage();
  const text = 'x'.repeat(2500);
  for (const id of ['chatgpt', 'claude', 'perplexity']) {
    await openComposer(page, composers, id);
    const state = await page.evaluate((t) => {
      const root = window.composerTest.editorRoot() as HTMLElement;
      const data = new DataTransfer();
      data.setData('text/plain', t);
      root.focus();
      root.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return { model: window.composerTest.model(), attachments: window.composerTest.attachments.length };
    }, text);
    expect(state, id).toEqual({ model: '', attachments: 1 });
  }
});
