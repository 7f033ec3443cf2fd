// Publisher strings as shown (lib/render/display.ts) and where they are shown: menu titles, the
// report's names and description with the hidden-in-name flag.
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX, NAME_MAX, displayText } from '../../../lib/render/display';
import { menuModel } from '../../../lib/background/menus';
import type { ApprovedSkillSummary } from '../../../lib/messages';

describe('displayText', () => {
  it('shows every bidi control as its code point, U+061C and the marks included', () => {
    for (const cp of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
      const d = displayText(`a${String.fromCodePoint(cp)}b`, NAME_MAX);
      expect(d.text).toBe(`a[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]b`);
      expect(d.hidden).toBe(1);
    }
  });

  it('shows zero-width, tag and filler characters; controls and separators become spaces', () => {
    expect(displayText('p\u200bay\u200d\u2060pal\u{E0041}', NAME_MAX).text).toBe('p[U+200B]ay[U+200D][U+2060]pal[U+E0041]');
    expect(displayText('a\nb\tc\u2028d\u0085e', NAME_MAX)).toEqual({ text: 'a b c d e', hidden: 0, cut: false });
  });

  it('caps by code points without splitting a pair, and still counts what lies past the cap', () => {
    const d = displayText('😀'.repeat(NAME_MAX + 5) + '\u202e', NAME_MAX);
    expect(d.text).toBe('😀'.repeat(NAME_MAX) + '…');
    expect(d.cut).toBe(true);
    expect(d.hidden).toBe(1);
    expect(displayText('x'.repeat(DESCRIPTION_MAX), DESCRIPTION_MAX).cut).toBe(false);
  });
});

describe('menu titles', () => {
  it('a stored approval name with bidi controls or over the cap is neutralised in the menu', () => {
    const approved = [
      { origin: 'https://pub.example', url: 'https://pub.example/a/SKILL.md', name: 'safe\u202eexe.txt', usable: true },
      { origin: 'https://pub.example', url: 'https://pub.example/b/SKILL.md', name: 'n'.repeat(500), usable: true },
    ] as unknown as ApprovedSkillSummary[];
    const titles = menuModel(approved).insertItems.map((i) => i.title);
    expect(titles[0]).toBe('safe[U+202E]exe.txt — pub.example');
    expect(titles[1]).toBe(`${'n'.repeat(NAME_MAX)}… — pub.example`);
  });
});
