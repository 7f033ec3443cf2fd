// grantsOf on top of the review (lib/review/): frontmatter that cannot be read counts as granting
// tools, and files are scripts by what they are, not by a short list of extensions.
import { describe, expect, it } from 'vitest';
import { grantsOf, needsConfirmation } from '../../../../lib/desktop/protocol/grants';

const enc = new TextEncoder();
const PLAIN = enc.encode('---\nname: plain\ndescription: Plain.\n---\n\n# Plain\n');

describe('grantsOf', () => {
  it('a plain skill with documents needs no confirmation', () => {
    const g = grantsOf(PLAIN, ['SKILL.md', 'references/guide.md', 'data/table.csv']);
    expect(g).toEqual({ tools: [], scripts: [] });
    expect(needsConfirmation(g)).toBe(false);
  });

  it('frontmatter that grants tools or declares hooks', () => {
    const g = grantsOf(enc.encode('---\nname: x\ndescription: X.\nallowed-tools: Bash\nhooks:\n  PreToolUse: []\n---\n'), []);
    expect(g.tools.sort()).toEqual(['allowed-tools', 'hooks']);
  });

  it('frontmatter that cannot be read counts as granting tools (a duplicate allowed-tools key)', () => {
    const g = grantsOf(enc.encode('---\nname: x\ndescription: X.\nallowed-tools: Read\nallowed-tools: Bash\n---\n'), []);
    expect(g.tools).toEqual(['frontmatter-duplicate-key']);
    expect(needsConfirmation(g)).toBe(true);
  });

  it('by path alone: tool metadata, auto-run files, code files and the old script rule', () => {
    const g = grantsOf(PLAIN, ['.git/config', 'conftest.py', 'src/main.go', 'scripts/README.md', 'run.sh']);
    expect(g.scripts).toEqual(['.git/config', 'conftest.py', 'run.sh', 'scripts/README.md', 'src/main.go']);
  });

  it('by content: a shebang script and an ELF program without extensions, a package.json with postinstall', () => {
    const g = grantsOf(PLAIN, [
      { path: 'tools/helper', bytes: enc.encode('#!/bin/sh\ntrue\n') },
      { path: 'tools/prog', bytes: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]) },
      { path: 'package.json', bytes: enc.encode('{"scripts":{"postinstall":"true"}}') },
      { path: 'notes', bytes: enc.encode('just notes\n') },
    ]);
    expect(g.scripts).toEqual(['package.json', 'tools/helper', 'tools/prog']);
  });
});
