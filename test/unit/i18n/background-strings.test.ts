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
    expect(badgeFor(makeReport([makeSkill({ status: 'digest-mismatch' })], { summary: { total: 1, usable: 0, approved: 0, warnings: 1, byStatus: {} } })).title).toBe('Skillpin: warning, 1 skill needs attention');
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
    const m = menuModel([summary(`${origin}/a/SKILL.md`), summary(`${origin}/b/SKILL.md`)], origin);
    expect(m.copyTitle).toBe('Skill-Kontext kopieren (2 Skills)');
    expect(m.insertTitle).toBe('Skill-Kontext einfügen');
  });

  it('a content-change notification in German names the skill and the site', () => {
    useGerman();
    const changed = { ...approved(makeSkill({ url: `${origin}/a/SKILL.md`, name: 'api-client' })), status: 'content-changed' as const };
    const plan = notificationFor(makeReport([changed], { origin }));
    expect(plan?.title).toBe('Skillpin: freigegebener Skill geändert');
    expect(plan?.message).toBe(`api-client auf ${origin} hat sich seit Ihrer Freigabe geändert. Sehen Sie sich die Änderungen an, bevor Sie ihn wieder verwenden.`);
  });
});
