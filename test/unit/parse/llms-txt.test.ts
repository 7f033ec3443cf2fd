import { describe, expect, it } from 'vitest';
import { parseLlmsTxt } from '../../../lib/parse/llms-txt';
import type { ParsedLlmsTxt } from '../../../lib/parse/llms-txt';
import { codes, enc, HEX_A, LLMS_URL, ORIGIN } from './helpers';

function parse(text: string, finalUrl = LLMS_URL, origin = ORIGIN): ParsedLlmsTxt {
  return parseLlmsTxt(enc(text), finalUrl, origin);
}

function names(text: string): (string | null)[] {
  return parse(text).candidates.map((c) => c.name);
}

const ITEM = '- [a](/skills/a/SKILL.md): does a';

/** Codes of warnings and errors (the empty-section note is info). */
function warnings(r: ParsedLlmsTxt): string[] {
  return codes(r.diagnostics.filter((d) => d.level !== 'info'));
}

describe('parseLlmsTxt: a plain item', () => {
  it('reads title, URL, description and the inline comment', () => {
    const text = `# Site\n\n## Skills\n\n- [placeholder](/skills/placeholder/SKILL.md): makes images. <!-- skill: {"version":"1.0.0","license":"MIT","sha256":"${HEX_A.toUpperCase()}","homepage":"https://example.test","requires":"x"} -->\n`;
    const r = parse(text);
    expect(r.hasSkillsSection).toBe(true);
    expect(r.diagnostics).toEqual([]);
    expect(r.candidates).toHaveLength(1);
    const c = r.candidates[0]!;
    expect(c).toMatchObject({
      source: 'llms-txt',
      position: 5,
      rawUrl: '/skills/placeholder/SKILL.md',
      url: 'https://example.test/skills/placeholder/SKILL.md',
      type: 'skill-md',
      name: 'placeholder',
      description: 'makes images.',
      version: '1.0.0',
      license: 'MIT',
      homepage: 'https://example.test',
      signature: null,
      refusal: null,
      diagnostics: [],
    });
    expect(c.declared).toEqual([{ source: 'llms-txt', field: 'inline-sha256', hex: HEX_A }]);
  });

  it('keeps ] ` and non-ASCII in the title (it runs to the first "](")', () => {
    expect(names('## Skills\n- [a]b `c` 技能](/x/SKILL.md): d\n')).toEqual(['a]b `c` 技能']);
  });

  it('resolves relative URLs against the final llms.txt URL and removes the fragment', () => {
    const r = parse('## Skills\n- [a](skills/a/SKILL.md#intro): d\n', 'https://example.test/docs/llms.txt');
    expect(r.candidates[0]?.url).toBe('https://example.test/docs/skills/a/SKILL.md');
    expect(r.candidates[0]?.rawUrl).toBe('skills/a/SKILL.md#intro');
  });

  it('infers the archive type from .zip / .tar.gz (any case)', () => {
    const r = parse('## Skills\n- [a](/a.ZIP): d\n- [b](/b.tar.gz?x=1): d\n- [c](/c/SKILL.md): d\n');
    expect(r.candidates.map((c) => c.type)).toEqual(['archive', 'archive', 'skill-md']);
  });

  it('decodes a BOM, CRLF, lone CR and a missing final newline', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('## Skills\r\n- [a](/a/SKILL.md): d\r- [b](/b/SKILL.md): d')]);
    const r = parseLlmsTxt(bom, LLMS_URL, ORIGIN);
    expect(r.candidates.map((c) => [c.name, c.position])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
  });
});

describe('parseLlmsTxt: section start and end', () => {
  it.each(['## Skills', '## skills', '##   SKILLS  ', '## Skills ##', '   ## Skills', '##\tSkills'])('"%s" starts the section', (heading) => {
    expect(names(`${heading}\n${ITEM}\n`)).toEqual(['a']);
  });

  it.each(['### Skills', '# Skills', '#### Writing Skills', '## Agent Skills', '## Skills list', '##Skills', '    ## Skills', '\t## Skills'])('"%s" is not a section start', (heading) => {
    const r = parse(`${heading}\n${ITEM}\n`);
    expect(r.hasSkillsSection).toBe(false);
    expect(r.candidates).toEqual([]);
  });

  it('ends at the next H1 or H2, not at H3+', () => {
    const text = `## Skills\n${ITEM}\n### Sub\n- [b](/b/SKILL.md): d\n## Other\n- [c](/c/SKILL.md): d\n# Top\n- [d](/d/SKILL.md): d\n`;
    expect(names(text)).toEqual(['a', 'b']);
  });

  it('needs a space after the hashes to end the section', () => {
    expect(names(`## Skills\n${ITEM}\n##Other\n- [b](/b/SKILL.md): d\n`)).toEqual(['a', 'b']);
  });

  it('a lone "#" or "##" without text does not end the section', () => {
    expect(names(`## Skills\n${ITEM}\n#\n##\n- [b](/b/SKILL.md): d\n`)).toEqual(['a', 'b']);
  });

  it('ends at EOF', () => {
    expect(names(`# T\n## Skills\n${ITEM}`)).toEqual(['a']);
  });

  it('never loads item-like lines outside the section', () => {
    const text = `# Site\n- [x](/x/SKILL.md): before\n## Docs\n- [y](/y/SKILL.md): docs\n## Skills\n${ITEM}\n## After\n- [z](/z/SKILL.md): after\n`;
    const r = parse(text);
    expect(r.candidates.map((c) => c.name)).toEqual(['a']);
    expect(r.diagnostics).toEqual([]);
  });

  it('collects a second ## Skills section, with a warning', () => {
    const text = `## Skills\n${ITEM}\n## Docs\n- [d](/d): docs\n## Skills\n- [b](/b/SKILL.md): d\n`;
    const r = parse(text);
    expect(r.candidates.map((c) => c.name)).toEqual(['a', 'b']);
    expect(codes(r.diagnostics)).toEqual(['llms-second-skills-section']);
    expect(r.diagnostics[0]?.line).toBe(5);
  });

  it('reports an empty section (info) and no section at all', () => {
    expect(codes(parse('## Skills\nIntro text only.\n## Next\n').diagnostics)).toEqual(['llms-skills-section-empty']);
    const none = parse('# Title\n\nJust text.\n');
    expect(none.hasSkillsSection).toBe(false);
    expect(none.candidates).toEqual([]);
    expect(none.diagnostics).toEqual([]);
  });
});

describe('parseLlmsTxt: code fences', () => {
  it('ignores a heading inside a fence', () => {
    expect(parse('```\n## Skills\n- [a](/a/SKILL.md): d\n```\n').hasSkillsSection).toBe(false);
    expect(parse('~~~md\n## Skills\n~~~\n').hasSkillsSection).toBe(false);
  });
  it('ignores items inside a fence within the section, and the section continues after it', () => {
    const text = `## Skills\n\`\`\`\n- [x](/x/SKILL.md): fenced\n## Not an end\n\`\`\`\n${ITEM}\n`;
    expect(names(text)).toEqual(['a']);
  });
  it('closes only with the same character and at least the same length', () => {
    const text = `## Skills\n\`\`\`\`\n\`\`\`\n~~~~\n- [x](/x/SKILL.md): still fenced\n\`\`\`\`\n${ITEM}\n`;
    expect(names(text)).toEqual(['a']);
  });
  it('does not treat a 4-space indented fence or a backtick line with more backticks as a fence', () => {
    expect(names(`## Skills\n    \`\`\`\n${ITEM}\n`)).toEqual(['a']);
    expect(names(`## Skills\n\`\`\`a\`b\n${ITEM}\n`)).toEqual(['a']);
  });
  it('an unclosed fence swallows the rest of the document', () => {
    expect(names(`## Skills\n\`\`\`\n${ITEM}\n`)).toEqual([]);
  });
});

describe('parseLlmsTxt: list syntax', () => {
  it('accepts -, * and + bullets and 0–3 spaces of indentation', () => {
    const text = '## Skills\n- [a](/a): d\n* [b](/b): d\n+ [c](/c): d\n   - [d](/d): d\n-\t[e](/e): d\n';
    expect(names(text)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('treats deeper lines (4 spaces, tabs, nested bullets) as continuation: never items, no metadata', () => {
    const text = `## Skills\n${ITEM}\n    - [nested](/n/SKILL.md): x <!-- skill: {"sha256":"${HEX_A}"} -->\n\t- [tab](/t/SKILL.md): x\n    wrapped text\n`;
    const r = parse(text);
    expect(r.candidates.map((c) => c.name)).toEqual(['a']);
    expect(r.candidates[0]?.declared).toEqual([]);
    expect(r.diagnostics).toEqual([]);
  });
  it('an item is one line: the comment on the next line is not attached', () => {
    const r = parse(`## Skills\n${ITEM}\n<!-- skill: {"sha256":"${HEX_A}"} -->\n`);
    expect(r.candidates[0]?.declared).toEqual([]);
  });
  it('ignores thematic breaks and plain paragraphs in the section', () => {
    const r = parse(`## Skills\nSome intro.\n* * *\n---\n${ITEM}\n`);
    expect(r.candidates.map((c) => c.name)).toEqual(['a']);
    expect(r.diagnostics).toEqual([]);
  });
  it('skips link-less and bare-URL items with a warning', () => {
    const r = parse('## Skills\n- just words\n- https://example.test/x/SKILL.md\n- <https://example.test/y>\n- **[bold](/b)**: d\n');
    expect(r.candidates).toEqual([]);
    expect(warnings(r)).toEqual(['llms-item-no-link', 'llms-item-bare-url', 'llms-item-bare-url', 'llms-item-no-link']);
    expect(r.diagnostics.filter((d) => d.level !== 'info').map((d) => d.line)).toEqual([2, 3, 4, 5]);
  });
  it('requires "](" to be adjacent', () => {
    const r = parse('## Skills\n- [a] (/a/SKILL.md): d\n');
    expect(r.candidates).toEqual([]);
    expect(warnings(r)).toEqual(['llms-item-no-link']);
  });
  it('allows spaces before ":"', () => {
    expect(parse('## Skills\n- [a](/a)   : desc\n').candidates[0]?.description).toBe('desc');
  });
  it.each([
    ['- [a](/a): desc', 'desc'],
    ['- [a](/a):desc', 'desc'],
    ['- [a](/a) - desc', 'desc'],
    ['- [a](/a) -desc', 'desc'],
    ['- [a](/a) – desc', 'desc'],
    ['- [a](/a) — desc', 'desc'],
    ['- [a](/a)\t— desc: with colon', 'desc: with colon'],
  ])('separator in "%s"', (line, description) => {
    const r = parse(`## Skills\n${line}\n`);
    expect(r.candidates[0]?.description).toBe(description);
    expect(r.diagnostics).toEqual([]);
  });
  it.each(['- [a](/a)- desc', '- [a](/a) desc', '- [a](/a), desc', '- [a](/a)desc'])('"%s" has no valid separator and is skipped', (line) => {
    const r = parse(`## Skills\n${line}\n`);
    expect(r.candidates).toEqual([]);
    expect(warnings(r)).toEqual(['llms-item-malformed']);
  });
  it('accepts one level of balanced parentheses in the URL', () => {
    const r = parse('## Skills\n- [a](/wiki/A_(b)/SKILL.md): d\n');
    expect(r.candidates[0]?.url).toBe('https://example.test/wiki/A_(b)/SKILL.md');
  });
  it.each([
    ['- [a](/x_((b))/SKILL.md): d', 'nests parentheses'],
    ['- [a](/x_(b/SKILL.md:d', 'no closing parenthesis'],
    ['- [a](/x y/SKILL.md): d', 'whitespace'],
    ['- [a](/x "title"): d', 'whitespace'],
    ['- [a](): d', 'empty'],
  ])('skips "%s" with a warning', (line, reason) => {
    const r = parse(`## Skills\n${line}\n`);
    expect(r.candidates).toEqual([]);
    expect(warnings(r)).toEqual(['llms-item-malformed']);
    expect(r.diagnostics[0]?.message).toContain(reason);
  });
  it('allows an empty description, with a warning', () => {
    const r = parse('## Skills\n- [a](/a/SKILL.md)\n- [b](/b/SKILL.md):   \n- [c](/c/SKILL.md) <!-- skill: {"version":"1"} -->\n');
    expect(r.candidates.map((c) => c.description)).toEqual(['', '', '']);
    expect(r.candidates.map((c) => codes(c.diagnostics))).toEqual([['llms-item-empty-description'], ['llms-item-empty-description'], ['llms-item-empty-description']]);
    expect(r.candidates[2]?.version).toBe('1');
  });
  it('warns about an empty title and leaves the name null', () => {
    const c = parse('## Skills\n- [](/a/SKILL.md): d\n').candidates[0];
    expect(c?.name).toBeNull();
    expect(codes(c?.diagnostics)).toEqual(['llms-item-empty-title']);
  });
});

describe('parseLlmsTxt: the inline comment', () => {
  const withComment = (json: string, tail = ''): ParsedLlmsTxt => parse(`## Skills\n- [a](/a/SKILL.md): d <!-- skill: ${json} -->${tail}\n`);

  it('ignores malformed JSON with a warning; the item stays', () => {
    const r = withComment('{"sha256": "abc",}');
    expect(r.candidates).toHaveLength(1);
    expect(r.candidates[0]?.refusal).toBeNull();
    expect(r.candidates[0]?.declared).toEqual([]);
    expect(codes(r.candidates[0]?.diagnostics)).toEqual(['llms-comment-invalid-json']);
  });
  it.each(['[1,2]', '"text"', 'null', '42'])('ignores the non-object %s with a warning', (json) => {
    const r = withComment(json);
    expect(r.candidates).toHaveLength(1);
    expect(codes(r.candidates[0]?.diagnostics)).toEqual(['llms-comment-not-object']);
  });
  it('tolerates whitespace inside the comment and trailing blanks', () => {
    const r = parse(`## Skills\n- [a](/a/SKILL.md): d <!--   skill:{"sha256":"${HEX_A}"}   -->  \t\n`);
    expect(r.candidates[0]?.declared).toHaveLength(1);
    expect(r.candidates[0]?.description).toBe('d');
  });
  it('only counts the comment as the last thing on the line', () => {
    const r = withComment(`{"sha256":"${HEX_A}"}`, ' trailing words');
    expect(r.candidates[0]?.declared).toEqual([]);
    expect(codes(r.candidates[0]?.diagnostics)).toEqual(['llms-comment-not-last']);
  });
  it('leaves other HTML comments in the description', () => {
    const r = parse('## Skills\n- [a](/a/SKILL.md): d <!-- note -->\n');
    expect(r.candidates[0]?.description).toBe('d <!-- note -->');
    expect(r.candidates[0]?.diagnostics).toEqual([]);
  });
  it('ignores unknown keys and key order', () => {
    const r = withComment(`{"zzz":[1],"sha256":"${HEX_A}","version":"2.0.0","extra":{"a":1}}`);
    expect(r.candidates[0]?.declared).toHaveLength(1);
    expect(r.candidates[0]?.version).toBe('2.0.0');
    expect(r.candidates[0]?.diagnostics).toEqual([]);
  });
  it('does not let __proto__ or constructor keys leak anything', () => {
    const r = withComment('{"__proto__":{"sha256":"x","polluted":1},"constructor":{"version":"9"}}');
    const c = r.candidates[0];
    expect(c?.refusal).toBeNull();
    expect(c?.version).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it.each([
    ['"abc"', 'short'],
    [`"${HEX_A}0"`, 'long'],
    [`"${'g'.repeat(64)}"`, 'non-hex'],
    ['12345', 'number'],
    ['null', 'null'],
    [`["${HEX_A}"]`, 'array'],
  ])('an invalid sha256 (%s, %s) makes the skill invalid', (value) => {
    const c = withComment(`{"sha256":${value}}`).candidates[0];
    expect(c?.refusal).toMatchObject({ status: 'invalid', code: 'llms-sha256-invalid' });
    expect(c?.declared).toEqual([]);
    expect(c?.url).toBe('https://example.test/a/SKILL.md');
  });
  it('warns about a repeated key (the last value is the one JSON keeps)', () => {
    const c = withComment(`{"sha256":"${'1'.repeat(64)}","sha256":"${HEX_A}"}`).candidates[0];
    expect(c?.declared.map((d) => d.hex)).toEqual([HEX_A]);
    expect(codes(c?.diagnostics)).toEqual(['llms-comment-duplicate-key']);
  });
  it('lowercases a valid sha256', () => {
    expect(withComment(`{"sha256":"${'AbCd'.repeat(16)}"}`).candidates[0]?.declared[0]?.hex).toBe('abcd'.repeat(16));
  });
  it('records scope, warning when it breaks the pattern', () => {
    expect(withComment('{"scope":"kdd"}').candidates[0]).toMatchObject({ scope: 'kdd', diagnostics: [] });
    const bad = withComment('{"scope":"Bad Scope"}').candidates[0];
    expect(bad?.scope).toBe('Bad Scope');
    expect(codes(bad?.diagnostics)).toEqual(['llms-scope-invalid']);
  });
  it('records tool and tool_sha256; tool_sha256 never becomes a declared digest', () => {
    const c = withComment(`{"tool":"/skills/a/tool.js","tool_sha256":"${HEX_A.toUpperCase()}"}`).candidates[0];
    expect(c).toMatchObject({ tool: '/skills/a/tool.js', toolSha256: HEX_A, declared: [], diagnostics: [] });
  });
  it('warns about a malformed tool_sha256 and a tool on another origin', () => {
    const c = withComment('{"tool":"https://evil.example/tool.js","tool_sha256":"xyz"}').candidates[0];
    expect(c?.toolSha256).toBeNull();
    expect(codes(c?.diagnostics).sort()).toEqual(['tool-not-same-origin', 'tool-sha256-invalid']);
  });
  it('ignores non-string display keys with a warning', () => {
    const c = withComment('{"version":1,"license":true}').candidates[0];
    expect(c?.version).toBeNull();
    expect(codes(c?.diagnostics)).toEqual(['llms-comment-key-type', 'llms-comment-key-type']);
  });
  it('ignores skills-memory lines, in and out of the section', () => {
    const memory = `<!-- skills-memory: {"snapshot":"/s","snapshot_sha256":"${HEX_A}","format":"minimemory-okf-v1"} -->`;
    const r = parse(`${memory}\n## Skills\n${memory}\n${ITEM}\n${memory}\n`);
    expect(r.candidates.map((c) => c.name)).toEqual(['a']);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('parseLlmsTxt: URL refusals', () => {
  it('refuses a placeholder URL as invalid, with no usable URL', () => {
    const c = parse('## Skills\n- [a](__PUBLIC_ORIGIN__/a/SKILL.md): d\n').candidates[0];
    expect(c?.url).toBeNull();
    expect(c?.refusal).toMatchObject({ status: 'invalid', code: 'url-placeholder' });
  });
  it('keeps the URL refusal when the sha256 is bad too', () => {
    const c = parse('## Skills\n- [a](javascript:alert(1)): d <!-- skill: {"sha256":"bad"} -->\n').candidates[0];
    expect(c?.refusal?.code).toBe('url-scheme');
    expect(codes(c?.diagnostics)).toContain('llms-sha256-invalid');
  });
  it('allows another host (shown later) but refuses a private one from a public origin', () => {
    const r = parse('## Skills\n- [a](https://raw.githubusercontent.com/o/r/main/SKILL.md): d\n- [b](http://192.168.1.2/SKILL.md): d\n');
    expect(r.candidates[0]?.refusal).toBeNull();
    expect(r.candidates[1]?.refusal?.code).toBe('url-downgrade');
  });
});

describe('parseLlmsTxt: linear time on hostile input (1 MiB lines, 100k lines)', () => {
  const MiB = 1 << 20;
  it.each([
    ['unterminated title', `## Skills\n- [${'a'.repeat(MiB)}`],
    ['many "](" pieces', `## Skills\n- [${'](x'.repeat(MiB / 3)}`],
    ['a long URL', `## Skills\n- [a](/${'b'.repeat(MiB)}): d`],
    ['open parentheses', `## Skills\n- [a](${'()'.repeat(MiB / 2)}`],
    ['spaces after the heading', `## skills${' '.repeat(MiB)}x\n${ITEM}`],
    ['hashes after the heading', `## skills ${'#'.repeat(MiB)} x`],
    ['many comment openers', `## Skills\n- [a](/a): d ${'<!-- '.repeat(MiB / 5)}`],
    ['many skill comments', `## Skills\n- [a](/a): d ${'<!-- skill: {} '.repeat(MiB / 16)}-->`],
    ['many separators', `## Skills\n- [a](/a) ${' -'.repeat(MiB / 2)}`],
    ['a thematic-break-like bullet', `## Skills\n- ${'- '.repeat(MiB / 2)}x`],
    ['a long fence', `${'`'.repeat(MiB)}\n## Skills\n`],
    ['many placeholders markers', `## Skills\n- [a](/${'__'.repeat(MiB / 2)}): d`],
  ])('%s', (_label, text) => {
    const r = parse(text);
    expect(r).toBeDefined();
  });

  it('parses 100k item lines', () => {
    const lines = ['## Skills'];
    for (let i = 0; i < 100_000; i += 1) lines.push(i % 10 === 0 ? `- [s${i}](/s/${i}/SKILL.md): d${i}` : `- plain ${i}`);
    const r = parse(lines.join('\n'));
    expect(r.candidates).toHaveLength(10_000);
    expect(r.candidates[9_999]?.position).toBe(99_992);
  });

  it('parses 100k headings and fences', () => {
    expect(parse('## Skills\n```\n'.repeat(50_000)).hasSkillsSection).toBe(true);
  });
});
