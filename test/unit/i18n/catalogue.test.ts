// Every UI string lives in public/_locales. Fails on: a key the code uses
// that a locale lacks, a locale key nothing uses, a locale whose placeholders differ from the
// English ones, and user-visible text written into a component or page instead of a message.
// Sources are parsed (TSX/TS with @babel/parser), so a key counts as used wherever it is a
// string literal: t('key'), a table of MessageKey values, or __MSG_key__ in the manifest.
import { parse } from '@babel/parser';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../..');
const LOCALES = join(ROOT, 'public/_locales');

interface Entry {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}
type Catalogue = Record<string, Entry>;

const catalogue = (lang: string): Catalogue => JSON.parse(readFileSync(join(LOCALES, lang, 'messages.json'), 'utf8')) as Catalogue;
const languages = readdirSync(LOCALES)
  .filter((d) => statSync(join(LOCALES, d)).isDirectory())
  .sort();
const english = catalogue('en');

function files(dir: string, re: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...files(rel, re));
    else if (re.test(name)) out.push(rel);
  }
  return out;
}

const SOURCES = [...files('lib', /\.tsx?$/), ...files('components', /\.tsx?$/), ...files('entrypoints', /\.tsx?$/), 'wxt.config.ts'];
const PAGES = files('entrypoints', /\.html$/);

type Node = { type: string; [k: string]: unknown };
function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const c of node) walk(c, visit);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as Node).type !== 'string') return;
  visit(node as Node);
  for (const [k, v] of Object.entries(node)) if (k !== 'loc' && k !== 'start' && k !== 'end' && typeof v === 'object') walk(v, visit);
}

const ast = (file: string) => parse(readFileSync(join(ROOT, file), 'utf8'), { sourceType: 'module', plugins: ['typescript', 'jsx'] });

/** Every string literal (and template text) in the sources, and where it is. */
function literals(): { value: string; file: string }[] {
  const out: { value: string; file: string }[] = [];
  for (const file of SOURCES) {
    walk(ast(file).program, (n) => {
      if (n.type === 'StringLiteral') out.push({ value: n.value as string, file });
      if (n.type === 'TemplateElement') out.push({ value: (n.value as { cooked: string }).cooked, file });
    });
  }
  return out;
}
const LITERALS = literals();

/** The bases of counted messages: the first argument of every tn('base', …) call. */
function pluralBases(): string[] {
  const out = new Set<string>();
  for (const file of SOURCES) {
    walk(ast(file).program, (n) => {
      if (n.type !== 'CallExpression') return;
      const callee = n.callee as Node;
      const args = n.arguments as Node[];
      if (callee.type === 'Identifier' && callee.name === 'tn' && args[0]?.type === 'StringLiteral') out.add(args[0].value as string);
    });
  }
  return [...out];
}
const PLURAL_BASES = pluralBases();

/** Placeholder names a message refers to ($NAME$), lower-cased. */
const referenced = (message: string): string[] => [...message.matchAll(/\$([A-Za-z0-9_@]+)\$/g)].map((m) => (m[1] as string).toLowerCase()).sort();

describe('locales', () => {
  it('English and at least one more language', () => {
    expect(languages).toContain('en');
    expect(languages.length).toBeGreaterThanOrEqual(2);
  });

  for (const lang of languages) {
    it(`${lang}: the same keys as English, every message non-empty`, () => {
      const c = catalogue(lang);
      expect(
        Object.keys(english).filter((k) => !(k in c)),
        `${lang} lacks`,
      ).toEqual([]);
      expect(
        Object.keys(c).filter((k) => !(k in english)),
        `${lang} has extra`,
      ).toEqual([]);
      expect(Object.keys(c).filter((k) => typeof c[k]?.message !== 'string' || c[k].message.trim() === '')).toEqual([]);
    });

    it(`${lang}: placeholders as in English, and every $NAME$ a message uses is defined`, () => {
      const c = catalogue(lang);
      const wrong: string[] = [];
      for (const [key, en] of Object.entries(english)) {
        const entry = c[key];
        if (!entry) continue;
        const defined = Object.keys(entry.placeholders ?? {})
          .map((n) => n.toLowerCase())
          .sort();
        const enDefined = Object.keys(en.placeholders ?? {})
          .map((n) => n.toLowerCase())
          .sort();
        if (defined.join() !== enDefined.join()) wrong.push(`${key}: defines ${defined.join() || 'none'}, English ${enDefined.join() || 'none'}`);
        for (const [name, p] of Object.entries(entry.placeholders ?? {})) {
          if (p.content !== en.placeholders?.[name]?.content) wrong.push(`${key}: ${name} is ${p.content}, English ${en.placeholders?.[name]?.content ?? 'none'}`);
        }
        const used = [...new Set(referenced(entry.message))];
        const enUsed = [...new Set(referenced(en.message))];
        if (used.join() !== enUsed.join()) wrong.push(`${key}: uses ${used.join() || 'none'}, English ${enUsed.join() || 'none'}`);
        for (const u of used) if (!defined.includes(u)) wrong.push(`${key}: $${u.toUpperCase()}$ is not defined`);
      }
      expect(wrong).toEqual([]);
    });
  }
});

describe('keys and code', () => {
  it('every key some locale has is used by the code', () => {
    const used = new Set(LITERALS.map((l) => l.value));
    // A counted message (lib/i18n/plural.ts tn('base', n), or a table of PluralBase values) uses every plural form of its base.
    for (const base of LITERALS.map((l) => l.value)) for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) used.add(`${base}_${form}`);
    for (const l of LITERALS) for (const m of l.value.matchAll(/__MSG_([A-Za-z0-9_@]+)__/g)) used.add(m[1] as string);
    for (const page of PAGES) for (const m of readFileSync(join(ROOT, page), 'utf8').matchAll(/__MSG_([A-Za-z0-9_@]+)__/g)) used.add(m[1] as string);
    expect(Object.keys(english).filter((k) => !used.has(k))).toEqual([]);
  });

  it('every key the code asks for is in the catalogue (t() with a literal key, __MSG_ in the manifest)', () => {
    const asked: string[] = [];
    for (const file of SOURCES) {
      walk(ast(file).program, (n) => {
        if (n.type !== 'CallExpression') return;
        const callee = n.callee as Node;
        const args = n.arguments as Node[];
        if (callee.type === 'Identifier' && callee.name === 't' && args[0]?.type === 'StringLiteral') asked.push(args[0].value as string);
      });
    }
    // tn('base', n) asks for base_other (and base_one where the language has it).
    for (const base of PLURAL_BASES) asked.push(`${base}_other`, `${base}_one`);
    for (const l of LITERALS) for (const m of l.value.matchAll(/__MSG_([A-Za-z0-9_@]+)__/g)) asked.push(m[1] as string);
    expect(asked.length).toBeGreaterThan(200);
    expect([...new Set(asked)].filter((k) => !(k in english))).toEqual([]);
  });
});

/** Text that is not language: brand and file names, symbols, numbers. */
const NOT_LANGUAGE = /^(?:Skillpin|SKILL\.md|llms\.txt|JSON|sha256|[\s\d\p{P}\p{S}]*)$/u;
const TEXT_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext']);

describe('no UI text outside the catalogue', () => {
  it('components and pages put no words in JSX text or text attributes', () => {
    const found: string[] = [];
    for (const file of SOURCES.filter((f) => f.endsWith('.tsx'))) {
      walk(ast(file).program, (n) => {
        const loc = (n.loc as { start: { line: number } } | undefined)?.start.line ?? 0;
        if (n.type === 'JSXText') {
          const text = (n.value as string).trim();
          if (text !== '' && !NOT_LANGUAGE.test(text)) found.push(`${relative(ROOT, join(ROOT, file))}:${loc} text "${text}"`);
        }
        if (n.type === 'JSXAttribute') {
          const name = (n.name as Node).name as string;
          const value = n.value as Node | null;
          if (TEXT_ATTRIBUTES.has(name) && value?.type === 'StringLiteral' && !NOT_LANGUAGE.test(value.value as string)) found.push(`${file}:${loc} ${name}="${value.value as string}"`);
        }
      });
    }
    for (const page of PAGES) {
      const html = readFileSync(join(ROOT, page), 'utf8');
      for (const m of html.matchAll(/<title>([^<]*)<\/title>/g)) {
        // A page whose script sets document.title from the catalogue may keep a fallback.
        const main = page.replace(/index\.html$/, 'main.tsx');
        const setsTitle = SOURCES.includes(main) && /document\.title\s*=\s*t\(/.test(readFileSync(join(ROOT, main), 'utf8'));
        if (!NOT_LANGUAGE.test(m[1] as string) && !setsTitle && !page.includes('offscreen')) found.push(`${page} <title>${m[1]}</title>`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the badge, the menu and the notifications take their words from the catalogue', () => {
    // Their user-visible strings, written as literals, would be English-only.
    const words = /\b(?:skills?|usable|checking|warning|Copy|Insert|changed|signs|approved)\b/;
    const found = LITERALS.filter((l) => ['lib/background/badge.ts', 'lib/background/menus.ts', 'lib/background/notify.ts', 'entrypoints/background/platform.ts'].includes(l.file))
      .filter((l) => words.test(l.value) && !/^[a-z-]+$/.test(l.value))
      .map((l) => `${l.file}: "${l.value}"`);
    expect(found).toEqual([]);
  });
});

// What reaches a user from the background, the chat page's content script, the export checks and
// the pages: a sentence written into the code instead of the catalogue would be English in every
// language. A literal counts as a sentence when it holds three words in a row.
const SENTENCE = /\p{L}{2,}[ ,;:'’]+\p{L}{2,}[ ,;:'’]+\p{L}{2,}/u;
/** Property names whose values are notes for developers, never shown (the adapter table's sources). */
const NOTE_KEYS = new Set(['source', 'sources', 'note', 'notes']);
/** Names, not language: a chat site's own name. */
const NAMES = new Set(['Mistral Le Chat']);
const USER_FACING = SOURCES.filter((f) => /^(lib\/(background|chat|export|skill-context|i18n)|components|entrypoints)\//.test(f));

/** The sentences written as literals in `code`, with their lines; console output, notes and CSS are not shown to users. */
function sentencesIn(code: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const program = parse(code, { sourceType: 'module', plugins: ['typescript', 'jsx'] }).program;
  const skip = new Set<unknown>();
  walk(program, (n) => {
    if (n.type === 'CallExpression') {
      const callee = n.callee as Node;
      // console.* for developers; the skill-context block's header is for the agent, in English by design (PRODUCT.md §6).
      if (callee.type === 'MemberExpression' && (callee.object as Node).type === 'Identifier' && ((callee.object as Node).name as string) === 'console') skip.add(n);
    }
    if (n.type === 'ObjectProperty') {
      const key = n.key as Node;
      const name = key.type === 'Identifier' ? (key.name as string) : key.type === 'StringLiteral' ? (key.value as string) : '';
      if (NOTE_KEYS.has(name)) skip.add(n.value);
    }
    if (skip.has(n)) {
      for (const [k, v] of Object.entries(n)) if (k !== 'loc' && typeof v === 'object') walk(v, (inner) => skip.add(inner));
      return;
    }
    const line = (n.loc as { start: { line: number } } | undefined)?.start.line ?? 0;
    if (n.type === 'StringLiteral' && SENTENCE.test(n.value as string) && !NAMES.has(n.value as string)) found.push({ line, text: n.value as string });
    if (n.type === 'TemplateLiteral') {
      const text = (n.quasis as Node[]).map((q) => (q.value as { cooked: string }).cooked).join('…');
      // A style sheet in a template (the chat notice's shadow root) is not language.
      if (SENTENCE.test(text) && !/[{;]\s*$|^\s*[:.#@]/m.test(text.trim().split('\n')[0] ?? '')) found.push({ line, text });
    }
  });
  return found.filter((f) => !skip.has(f));
}

describe('no sentence outside the catalogue in what reaches a user', () => {
  it('finds a hard-coded English sentence, and leaves console output, notes and style sheets alone', () => {
    const sample = [
      "export const gone = () => ({ ok: false, message: 'The chat tab is gone, so nothing was inserted.' });",
      'const why = (host: string) => `This skill is hosted on ${host}; confirm to approve it.`;',
      "console.warn('Skillpin: the request rules could not be installed');",
      "const adapter = { host: 'chat.example', source: 'the site’s own composer markup' };",
      'const STYLE = `\n:host { all: initial; }\n.box { position: fixed; right: 16px; }\n`;',
      "const key = t('chat_tab_gone');",
    ].join('\n');
    expect(sentencesIn(sample).map((f) => f.line)).toEqual([1, 2]);
  });

  // The content script (lib/chat), the background (lib/background: refusals, hints, handler
  // failures), the export checks (lib/export) and the pages (components, entrypoints, the Details view).
  it.each(USER_FACING.filter((f) => !f.startsWith('lib/skill-context/')))('%s', (file) => {
    const found = sentencesIn(readFileSync(join(ROOT, file), 'utf8')).map((f) => `${file}:${f.line} "${f.text.slice(0, 80)}"`);
    expect(found).toEqual([]);
  });
});
