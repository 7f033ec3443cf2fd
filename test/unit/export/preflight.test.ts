// The pre-flight of "Export for upload": one sentence per broken upload rule, checked on
// the verified bytes as they are. Real SKILL.md files from the corpus (test/fixtures/export/README.md)
// plus small cases for each rule.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_FILES, preflight, type ExportFile, type PreflightResult } from '../../../lib/export/preflight';

const FIXTURES = join(__dirname, '../../fixtures/export');
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const md = (text: string) => new TextEncoder().encode(text);
const skill = (fm: string, body = '# Body\n') => md(`---\n${fm}\n---\n\n${body}`);
const codes = (r: PreflightResult) => (r.ok ? [] : r.problems.map((p) => p.code));
const messages = (r: PreflightResult) => (r.ok ? [] : r.problems.map((p) => p.message));

describe('real SKILL.md files', () => {
  it('passes a skill that follows every rule, and names the folder after it', () => {
    expect(preflight(fixture('spec-with-optional-fields.SKILL.md'))).toEqual({ ok: true, name: 'pdf-processing' });
    expect(preflight(fixture('crlf-placeholder.SKILL.md'))).toMatchObject({ ok: true });
  });

  it('refuses a SKILL.md without frontmatter with that reason alone', () => {
    const r = preflight(fixture('no-frontmatter-site-facts.SKILL.md'));
    expect(codes(r)).toEqual(['frontmatter-missing']);
    expect(messages(r)[0]).toMatch(/no YAML frontmatter/);
  });

  it('refuses a byte order mark before the frontmatter (the bytes are never edited to pass)', () => {
    const r = preflight(fixture('bom-prefixed-placeholder.SKILL.md'));
    expect(codes(r)).toEqual(['frontmatter-missing']);
    expect(messages(r)[0]).toMatch(/byte order mark/);
  });

  it('refuses frontmatter that is not valid YAML', () => {
    expect(codes(preflight(fixture('bad-yaml-fliplet-data-sources.SKILL.md')))).toEqual(['frontmatter-unreadable']);
  });

  it('refuses an underscore in the name', () => {
    const r = preflight(fixture('underscore-name-get-concept.SKILL.md'));
    expect(codes(r)).toEqual(['name-characters']);
    expect(messages(r)).toEqual(['The name "get_concept" may use only lower-case letters a–z, digits and hyphens.']);
  });

  it('refuses an XML tag in the description', () => {
    const r = preflight(fixture('xml-in-description-git-squash-merge.SKILL.md'));
    expect(codes(r)).toEqual(['description-xml']);
    expect(messages(r)[0]).toContain('"<hash>"');
  });
});

describe('name rules', () => {
  const nameCodes = (name: string) => codes(preflight(skill(`name: ${JSON.stringify(name)}\ndescription: ok`)));
  it('accepts 1 to 64 of a-z, 0-9 and single inner hyphens', () => {
    expect(nameCodes('a')).toEqual([]);
    expect(nameCodes('x'.repeat(64))).toEqual([]);
    expect(nameCodes('pdf-2-text')).toEqual([]);
  });
  it('gives one sentence per broken rule', () => {
    expect(nameCodes('x'.repeat(65))).toEqual(['name-length']);
    expect(nameCodes('')).toEqual(['name-length']);
    expect(nameCodes('PDF Tools')).toEqual(['name-characters']);
    expect(nameCodes('-pdf')).toEqual(['name-edge-hyphen']);
    expect(nameCodes('pdf-')).toEqual(['name-edge-hyphen']);
    expect(nameCodes('pdf--tools')).toEqual(['name-double-hyphen']);
    expect(nameCodes('-Bad--Name_')).toEqual(['name-characters', 'name-edge-hyphen', 'name-double-hyphen']);
  });
  it('needs a string name', () => {
    expect(codes(preflight(skill('description: ok')))).toEqual(['name-missing']);
    expect(codes(preflight(skill('name: 42\ndescription: ok')))).toEqual(['name-missing']);
  });
});

describe('description rules', () => {
  const descCodes = (d: string) => codes(preflight(skill(`name: ok\ndescription: ${JSON.stringify(d)}`)));
  it('allows up to 1,024 characters, counted as code points', () => {
    expect(descCodes('d'.repeat(1024))).toEqual([]);
    expect(descCodes('é'.repeat(1024))).toEqual([]);
    expect(descCodes('😀'.repeat(1024))).toEqual([]);
    expect(descCodes('d'.repeat(1025))).toEqual(['description-length']);
  });
  it('refuses XML tags but not a lone angle bracket', () => {
    expect(descCodes('Use when a < b and c > d.')).toEqual([]);
    expect(descCodes('Use <example>this</example>.')).toEqual(['description-xml']);
    expect(descCodes('Break<br/>here')).toEqual(['description-xml']);
  });
  it('needs a description that is not empty', () => {
    expect(codes(preflight(skill('name: ok')))).toEqual(['description-missing']);
    expect(descCodes('   ')).toEqual(['description-empty']);
  });
  it('reports a broken name and a broken description together', () => {
    const r = preflight(skill(`name: Bad_Name\ndescription: "${'d'.repeat(1100)}"`));
    expect(codes(r)).toEqual(['name-characters', 'description-length']);
    expect(messages(r)[1]).toBe('The description is 1,100 characters long; at most 1,024 are allowed.');
  });
});

describe('file rules (archive skills)', () => {
  const ok = skill('name: tool\ndescription: ok');
  const file = (path: string): ExportFile => ({ path, bytes: md('x') });
  it('accepts files under the folder, up to 200 with SKILL.md', () => {
    expect(preflight(ok, [file('references/a.md'), file('scripts/run.sh')])).toEqual({ ok: true, name: 'tool' });
    expect(
      preflight(
        ok,
        Array.from({ length: MAX_FILES - 1 }, (_, i) => file(`f${i}.txt`)),
      ),
    ).toMatchObject({ ok: true });
  });
  it('refuses more than 200 files', () => {
    const r = preflight(
      ok,
      Array.from({ length: MAX_FILES }, (_, i) => file(`f${i}.txt`)),
    );
    expect(messages(r)).toEqual(['The skill has 201 files; at most 200 are allowed.']);
  });
  it('refuses a second SKILL.md anywhere in the folder, whatever its case', () => {
    expect(codes(preflight(ok, [file('nested/SKILL.md')]))).toEqual(['skill-md-duplicate']);
    expect(codes(preflight(ok, [file('skill.md')]))).toEqual(['skill-md-duplicate']);
  });
  it('refuses a path that would leave the folder', () => {
    for (const p of ['../escape.md', '/abs.md', 'a/../../b', 'a\\b', 'C:/x', 'a//b']) {
      expect(codes(preflight(ok, [file(p)]))).toEqual(['path-outside-folder']);
    }
  });
});

describe('names Windows or macOS cannot unpack', () => {
  const ok = skill('name: tool\ndescription: ok');
  const file = (path: string): ExportFile => ({ path, bytes: md('x') });
  const check = (...paths: string[]) => preflight(ok, paths.map(file));

  it('refuses device names with or without an extension, in any case and in any folder', () => {
    for (const p of ['CON', 'con.txt', 'scripts/Aux.sh', 'nul.tar.gz', 'PRN', 'COM1', 'com9.log', 'LPT1', 'lpt9', 'COM0', 'LPT¹.md', 'docs/NUL.d/x.md', 'COM1 .txt']) {
      expect(codes(check(p)), p).toEqual(['path-reserved-name']);
    }
    expect(messages(check('scripts/CON.sh'))).toEqual([
      'Windows cannot unpack a file or folder named after a device (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, with or without an extension): "scripts/CON.sh" ("CON").',
    ]);
  });

  it('accepts names that only look like device names', () => {
    expect(check('console.md', 'icon.png', 'com10.txt', 'lpt.md', 'nullable/x.md', 'auxiliary.sh', 'a.con', 'COM.md')).toEqual({ ok: true, name: 'tool' });
  });

  it('refuses : * ? " < > | and names which file and which character', () => {
    for (const ch of [':', '*', '?', '"', '<', '>', '|']) expect(codes(check(`notes/a${ch}b.md`)), ch).toEqual(['path-reserved-character']);
    expect(messages(check('notes/a:b.md'))).toEqual(['Windows and macOS cannot unpack a name with one of the characters : * ? " < > |: "notes/a:b.md" (":").']);
  });

  it('refuses control characters, naming the code point', () => {
    expect(messages(check('a\u0007b.md'))).toEqual(['Windows cannot unpack a name with a control character in it: "a\\u0007b.md" (U+0007).']);
    expect(codes(check('x\u007f.md'))).toEqual(['path-control-character']);
  });

  it('refuses a trailing dot or space in a file or a folder name', () => {
    for (const p of ['notes.', 'notes ', 'dir./a.md', 'dir /a.md']) expect(codes(check(p)), p).toEqual(['path-trailing-dot-space']);
    expect(messages(check('dir./a.md'))).toEqual(['Windows cannot unpack a name that ends in a dot or a space (it drops them): "dir./a.md".']);
    expect(check('.hidden', 'a/.env', 'v1.2/x.md')).toMatchObject({ ok: true });
  });

  it('gives one sentence per broken rule, listing up to three files', () => {
    const r = check('CON', 'aux.md', 'nul', 'prn.txt', 'a?.md', 'b.');
    expect(codes(r)).toEqual(['path-reserved-name', 'path-reserved-character', 'path-trailing-dot-space']);
    expect(messages(r)[0]).toContain('"CON" ("CON"), "aux.md" ("aux"), "nul" ("nul"), …');
    expect(codes(check('con:x.'))).toEqual(['path-reserved-character', 'path-trailing-dot-space']);
  });

  it('leaves a path outside the folder to its own rule', () => {
    expect(codes(check('C:/x'))).toEqual(['path-outside-folder']);
  });

  it('refuses a skill named after a device: its folder and file would carry the name', () => {
    const r = preflight(skill('name: con\ndescription: ok'));
    expect(codes(r)).toEqual(['name-reserved']);
    expect(messages(r)).toEqual(['The name "con" is one Windows keeps for a device, and the exported folder is named after it: Windows cannot unpack the export.']);
    expect(codes(preflight(skill('name: com1\ndescription: ok')))).toEqual(['name-reserved']);
    expect(preflight(skill('name: console\ndescription: ok'))).toMatchObject({ ok: true });
  });

  it('says it in German when the browser runs in German', async () => {
    const { formatEntry, setMessageSource } = await import('../../../lib/i18n');
    const german = JSON.parse(readFileSync(join(__dirname, '../../../public/_locales/de/messages.json'), 'utf8')) as Record<
      string,
      { message: string; placeholders?: Record<string, { content: string }> }
    >;
    setMessageSource((name, subs) => {
      const entry = german[name];
      return entry ? formatEntry(entry, subs ?? []) : '';
    });
    try {
      expect(messages(check('scripts/CON.sh', 'a|b'))).toEqual([
        'Windows kann keine Datei und keinen Ordner entpacken, die nach einem Gerät benannt sind (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, mit oder ohne Endung): "scripts/CON.sh" ("CON").',
        'Windows und macOS können keinen Namen mit einem der Zeichen : * ? " < > | entpacken: "a|b" ("|").',
      ]);
      expect(messages(preflight(md('# no frontmatter\n')))).toEqual(['Die SKILL.md hat keinen YAML-Frontmatter: Sie muss mit einer Zeile „---“ beginnen, dann name und description, dann „---“.']);
    } finally {
      setMessageSource(null);
    }
  });
});
