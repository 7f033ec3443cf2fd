// The badge, menu and notification texts come from the locale files: in English from the
// built-in catalogue, in German when the browser's i18n API answers from _locales/de.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { badgeFor, notCheckedTitle } from '../../../lib/background/badge';
import { menuModel } from '../../../lib/background/menus';
import { notificationFor } from '../../../lib/background/notify';
import { formatEntry, setMessageSource } from '../../../lib/i18n';
import { approved, makeReport, makeSkill } from '../../fixtures/ui/reports';

const ROOT = join(__dirname, '../../..');
type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const german = JSON.parse(readFileSync(join(ROOT, 'public/_locales/de/messages.json'), 'utf8')) as Catalogue;

/** What browser.i18n.getMessage answers when the browser runs in German. */
function useGerman(): void {
  setMessageSource((name, subs) => {
    const entry = german[name];
    return entry ? formatEntry(entry, subs ?? []) : '';
  });
}

afterEach(() => setMessageSource(null));

const origin = 'https://docs.example.com';
const two = [makeSkill({ url: `${origin}/a/SKILL.md` }), makeSkill({ url: `${origin}/b/SKILL.md` })];

describe('badge titles', () => {
  it('English, with a singular for one skill', () => {
    setMessageSource(null);
    expect(badgeFor(makeReport(two)).title).toBe('Skillpin: 2 usable skills');
    expect(badgeFor(makeReport([two[0]!])).title).toBe('Skillpin: 1 usable skill');
    expect(badgeFor(makeReport([makeSkill({ status: 'digest-mismatch' })], { summary: { total: 1, usable: 0, approved: 0, warnings: 1, byStatus: {} } })).title).toBe(
      'Skillpin: warning, 1 skill needs attention',
    );
    expect(notCheckedTitle('private-window')).toBe('Skillpin: not checked (private window)');
    expect(notCheckedTitle('some-new-reason')).toBe('Skillpin: not checked (some-new-reason)');
  });

  it('German', () => {
    useGerman();
    expect(badgeFor(makeReport(two)).title).toBe('Skillpin: 2 verwendbare Skills');
    expect(badgeFor(makeReport([two[0]!])).title).toBe('Skillpin: 1 verwendbarer Skill');
    expect(badgeFor(makeReport([], { state: 'skipped', skippedBecause: 'paused' })).title).toBe('Skillpin: nicht geprüft (angehalten)');
    expect(badgeFor(makeReport([], { state: 'probing' })).title).toBe('Skillpin: Diese Website wird geprüft');
  });
});

describe('menus and notifications', () => {
  const summary = (url: string) => ({ origin, url, name: 'api-client', usable: true }) as Parameters<typeof menuModel>[0][number];

  it('menu titles in German', () => {
    useGerman();
    const m = menuModel([summary(`${origin}/a/SKILL.md`), summary(`${origin}/b/SKILL.md`)]);
    expect(m.copyItems.map((i) => i.title)).toEqual(['Skill-Kontext kopieren (2 Skills)']);
    expect(m.insertTitle).toBe('Skill-Kontext einfügen');
    expect(m.libraryTitle).toBe('Alle meine Skills neben der Seite öffnen');
  });

  it('a content-change notification in German names the skill and the site', () => {
    useGerman();
    const changed = { ...approved(makeSkill({ url: `${origin}/a/SKILL.md`, name: 'api-client' })), status: 'content-changed' as const };
    const plan = notificationFor(makeReport([changed], { origin }));
    expect(plan?.title).toBe('Skillpin: freigegebener Skill geändert');
    expect(plan?.message).toBe(`api-client auf ${origin} hat sich seit Ihrer Freigabe geändert. Sehen Sie sich die Änderungen an, bevor Sie ihn wieder verwenden.`);
  });
});

describe('what the background and the chat page say, in German', () => {
  it('the refusals, the clipboard hints and the chat-tab messages', async () => {
    useGerman();
    const { clipboardHint, noClipboardHint, notAChatMessage } = await import('../../../lib/background/chat-delivery');
    const { approvalDecision, handOff } = await import('../../../lib/background/opt-in-rules');
    expect(clipboardHint()).toBe('Der Skill ist in Ihrer Zwischenablage: Klicken Sie in das Nachrichtenfeld und fügen Sie ihn ein (Strg+V oder ⌘V). Es wurde nichts gesendet.');
    expect(noClipboardHint()).toContain('Skill-Kontext kopieren');
    expect(notAChatMessage(null, null)).toBe('Der Chat-Tab ist nicht mehr da, deshalb wurde nichts eingefügt.');
    expect(notAChatMessage('https://example.org/x', 'https://chatgpt.com')).toContain('zeigt jetzt https://example.org statt https://chatgpt.com');
    expect(handOff(null)).toMatchObject({ ok: false, message: 'Die Website führt diesen Skill nicht mehr auf.' });
    const skill = makeSkill({ status: 'digest-mismatch' });
    expect(approvalDecision(skill, { digestLf: 'a'.repeat(64), confirmUnverified: false, confirmCrossOrigin: false })).toMatchObject({
      ok: false,
      message: 'Ein Skill mit dem Status „Inhalt stimmt nicht überein“ kann nicht freigegeben werden.',
    });
  });

  it('the chat page: the insert results and the notice with its close button', async () => {
    useGerman();
    const { insertMessage } = await import('../../../lib/chat/insert');
    const { navigatedAwayMessage } = await import('../../../lib/chat/content-handler');
    expect(insertMessage('success')).toBe('Skill in das Nachrichtenfeld eingefügt. Prüfen Sie ihn und senden Sie ihn dann selbst ab.');
    expect(insertMessage('noComposer')).toContain('kein Nachrichtenfeld');
    expect(navigatedAwayMessage()).toContain('deshalb wurde nichts eingefügt');
    const { Window } = await import('happy-dom');
    const doc = new Window({ url: 'https://chatgpt.com/' }).document as unknown as Document;
    const { showNotice } = await import('../../../lib/chat/notice');
    const shown = showNotice(doc, insertMessage('success'), { tone: 'info' });
    const close = shown?.root.querySelector('button');
    expect(close?.getAttribute('aria-label')).toBe('Schließen');
    expect(shown?.root.textContent).toContain('Skill in das Nachrichtenfeld eingefügt');
    expect(shown?.root.textContent).not.toMatch(/inserted|Dismiss/);
  });
});
