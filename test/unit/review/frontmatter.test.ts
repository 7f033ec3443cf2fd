// The frontmatter rules of the review: grants and hooks in every spelling a YAML reader accepts,
// and frontmatter that cannot be read (or that readers may read otherwise) taken as granting tools.
import { describe, expect, it } from 'vitest';
import { kinds, of, review } from './support';

const md = (block: string, end = '\n'): string => `---${end}${block.split('\n').join(end)}${end}---${end}# Body${end}`;

describe('frontmatter grants and hooks', () => {
  it.each([
    ['allowed-tools: Bash', 'tool-grant'],
    ['"allowed-tools": Bash', 'tool-grant'],
    ['Allowed_Tools: Bash', 'tool-grant'],
    ['allowedTools: [Bash]', 'tool-grant'],
    ['mcpServers: {db: {command: x}}', 'tool-grant'],
    ['? allowed-tools\n: Bash', 'tool-grant'],
    ['&a hooks: x\nother: y', 'hooks'],
    ['allowed-tools:\tBash', 'tool-grant'],
    ['allowed-tools:', 'tool-grant'],
  ])('%j → %s', (block, kind) => {
    expect(kinds(review({ 'SKILL.md': md(`name: x\ndescription: X.\n${block}`) }))).toContain(kind);
  });

  it('a flow mapping as the whole block', () => {
    expect(kinds(review({ 'SKILL.md': md('{name: x, hooks: {PreToolUse: x}}') }))).toContain('hooks');
  });

  it('a plain frontmatter grants nothing', () => {
    expect(review({ 'SKILL.md': md('name: x\ndescription: Reads PDFs.') }).findings).toEqual([]);
  });
});

describe('frontmatter that cannot be read fails closed (unreadable-frontmatter, can-act)', () => {
  it.each([
    ['a duplicate key', md('name: x\nallowed-tools: Read\nallowed-tools: Bash')],
    ['a merge key', md('name: x\n<<: {allowed-tools: Bash}')],
    ['a collection as key', md('name: x\n? [allowed-tools]\n: Bash')],
    ['a YAML error', md('name: x\ndescription: a: b')],
    ['no closing line', '---\nname: x\nallowed-tools: Bash\n# Body\n'],
    ['over 16 KiB', md(`name: x\nmetadata: "${'y'.repeat(17_000)}"\nallowed-tools: Bash`)],
    ['an opening line with a trailing space', '--- \nallowed-tools: Bash\n---\n# Body\n'],
    ['a list instead of a mapping', md('- allowed-tools\n- Bash')],
  ])('%s', (_what, text) => {
    const found = of(review({ 'SKILL.md': text }), 'unreadable-frontmatter');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'can-act', file: 'SKILL.md' });
  });

  it('lone CR line ends are read as line breaks, as other YAML readers read them (a complex key once slipped through)', () => {
    expect(kinds(review({ 'SKILL.md': '---\rname: Bash\r? allowed-tools\n: Bash\r---\r# Body\r' }))).toContain('tool-grant');
  });

  it('an empty or comment-only block is not unreadable', () => {
    expect(review({ 'SKILL.md': '---\n---\n# Body\n' }).findings).toEqual([]);
    expect(review({ 'SKILL.md': '---\n# just a comment\n---\n# Body\n' }).findings).toEqual([]);
  });
});
