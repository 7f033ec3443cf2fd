import { describe, expect, it } from 'vitest';
import { baseFolderName, folderCandidates, slug } from '../../../../lib/desktop/protocol/names';
import { checkSkillPath, checkSkillPaths, isScriptPath } from '../../../../lib/desktop/protocol/paths';

describe('skill file paths', () => {
  it('accepts ordinary relative paths', () => {
    for (const p of ['SKILL.md', 'references/GUIDE.md', 'templates/regional/eu-invoice.md', '.hidden/notes.txt', 'ü/ñ.md']) expect(checkSkillPath(p), p).toEqual({ ok: true });
  });

  it.each(['', '/abs', '../up', 'a/../b', 'a//b', './a', 'a\\b', 'C:x', 'a:b', 'con', 'LPT1.txt', 'dot.', 'space ', '.skillpin-tmp-x', 'e\u0301.md', 'x\u0000'])('refuses %j', (p) => {
    expect(checkSkillPath(p).ok).toBe(false);
  });

  it('refuses a set with case or normalisation twins, a file used as a folder, or no SKILL.md', () => {
    expect(checkSkillPaths(['SKILL.md', 'a.md', 'A.md']).ok).toBe(false);
    expect(checkSkillPaths(['SKILL.md', 'x', 'x/y']).ok).toBe(false);
    expect(checkSkillPaths(['README.md']).ok).toBe(false);
    expect(checkSkillPaths(['SKILL.md', 'x/y', 'x/z'])).toEqual({ ok: true });
  });

  it('tells script files', () => {
    expect(['scripts/a.txt', 'run.sh', 'tool.PY', 'bin/x'].every(isScriptPath)).toBe(true);
    expect(['SKILL.md', 'references/REFERENCE.md', 'script.md'].some(isScriptPath)).toBe(false);
  });
});

describe('agent folder names', () => {
  it('uses a valid frontmatter name, else a slug, else "skill"', () => {
    expect(baseFolderName('code-review', 'Whatever')).toBe('code-review');
    expect(baseFolderName('Code Review!', 'x')).toBe('code-review');
    expect(baseFolderName(null, 'Ünïcode Tools')).toBe('unicode-tools');
    expect(baseFolderName(null, '¿?')).toBe('skill');
    expect(slug('a'.repeat(100)).length).toBe(64);
  });

  it('adds the host, then a number, each within 64 characters', () => {
    expect(folderCandidates('alpha', 'https://b.example:8443').slice(0, 3)).toEqual(['alpha', 'alpha-b-example-8443', 'alpha-b-example-8443-2']);
    for (const n of folderCandidates('x'.repeat(64), 'https://a-very-long-host-name.example.com')) expect(n).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/), expect(n.length).toBeLessThanOrEqual(64);
  });
});

describe('what may reach an agent folder', () => {
  it.each(['.git/config', 'a/.GIT/hooks/pre-commit', 'git~1/config', '.g\u200cit/config', '.git./config', '.hg/hgrc', 'x/.svn/entries', '.jj/repo', '.gitmodules', 'CVS/Root'])(
    'refuses version-control metadata %j with a message saying why',
    (p) => {
      const r = checkSkillPath(p);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/version-control metadata/);
    },
  );

  it.each(['con', 'NUL', 'aux', 'prn', 'com1', 'lpt1', 'lpt9', 'com¹'])('never gives the Windows device name %j as a folder name', (name) => {
    const folder = baseFolderName(name, name);
    expect(folder.toLowerCase()).not.toBe(name.toLowerCase());
    expect(checkSkillPath(folder)).toEqual({ ok: true });
    expect(baseFolderName(null, `${name}.txt`)).not.toMatch(/^(con|nul|aux|prn|com\d|lpt\d)(\.|$)/i);
  });
});
