import { describe, expect, it } from 'vitest';
import { checkEntryName, collisionKey, NameRegistry } from '../../../lib/verify/archive-names';

describe('checkEntryName', () => {
  it.each([
    ['SKILL.md', false, 'SKILL.md'],
    ['references/REFERENCE.md', false, 'references/REFERENCE.md'],
    ['references/', true, 'references'],
    ['a/b/c/', true, 'a/b/c'],
    ['notes-ü.md', false, 'notes-ü.md'],
    ['..hidden', false, '..hidden'],
    ['a..b/c...', false, 'a..b/c...'],
    ['.config/x', false, '.config/x'],
    ['ab:c.md', false, 'ab:c.md'],
  ] as const)('accepts %j', (name, dir, path) => {
    expect(checkEntryName(name, dir)).toEqual({ ok: true, path });
  });

  it.each([
    ['', 'archive-path-empty'],
    ['..', 'archive-path-traversal'],
    ['../SKILL.md', 'archive-path-traversal'],
    ['a/../../SKILL.md', 'archive-path-traversal'],
    ['a/..', 'archive-path-traversal'],
    ['/etc/passwd', 'archive-path-absolute'],
    ['/SKILL.md', 'archive-path-absolute'],
    ['C:\\Windows\\x', 'archive-path-absolute'],
    ['c:/x', 'archive-path-absolute'],
    ['C:x', 'archive-path-absolute'],
    ['a:b.md', 'archive-path-absolute'],
    ['\\\\host\\share\\x', 'archive-path-absolute'],
    ['//host/share/x', 'archive-path-absolute'],
    ['a\\b.md', 'archive-path-backslash'],
    ['\\SKILL.md', 'archive-path-backslash'],
    ['a\u0000b', 'archive-path-control'],
    ['a\u0001b', 'archive-path-control'],
    ['a\nb', 'archive-path-control'],
    ['a\u007fb', 'archive-path-control'],
    ['a\u0085b', 'archive-path-control'],
    ['a//b', 'archive-path-segment'],
    ['./SKILL.md', 'archive-path-segment'],
    ['././SKILL.md', 'archive-path-segment'],
    ['a/./b', 'archive-path-segment'],
    ['.', 'archive-path-segment'],
    ['a/', 'archive-path-segment'],
  ] as const)('refuses file name %j (%s)', (name, code) => {
    expect(checkEntryName(name, false)).toMatchObject({ ok: false, status: 'invalid', code });
  });

  it('a directory may end with one slash, not two', () => {
    expect(checkEntryName('a//', true)).toMatchObject({ ok: false, code: 'archive-path-segment' });
    expect(checkEntryName('/', true)).toMatchObject({ ok: false, code: 'archive-path-absolute' });
  });

  it('messages never carry raw control characters', () => {
    const r = checkEntryName('x\u0000\u001b[31m', false);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('collisionKey', () => {
  it('folds case and Unicode normalization', () => {
    expect(collisionKey('SKILL.md')).toBe(collisionKey('Skill.md'));
    expect(collisionKey('caf\u00e9.md')).toBe(collisionKey('cafe\u0301.md'));
    expect(collisionKey('STRASSE')).toBe(collisionKey('straße'));
    expect(collisionKey('a.md')).not.toBe(collisionKey('b.md'));
  });
});

describe('NameRegistry', () => {
  it('accepts distinct names and a directory listed after its files', () => {
    const r = new NameRegistry();
    expect(r.add('SKILL.md', 'file')).toBeNull();
    expect(r.add('references/a.md', 'file')).toBeNull();
    expect(r.add('references', 'directory')).toBeNull();
    expect(r.add('references/b.md', 'file')).toBeNull();
  });

  it.each([
    [['SKILL.md', 'file'], ['SKILL.md', 'file'], 'archive-duplicate-name'],
    [['refs', 'directory'], ['refs', 'directory'], 'archive-duplicate-name'],
    [['SKILL.md', 'file'], ['Skill.md', 'file'], 'archive-name-collision'],
    [['caf\u00e9.md', 'file'], ['cafe\u0301.md', 'file'], 'archive-name-collision'],
    [['refs', 'file'], ['refs/a.md', 'file'], 'archive-name-collision'],
    [['refs/a.md', 'file'], ['refs', 'file'], 'archive-name-collision'],
    [['Refs/a.md', 'file'], ['refs/b.md', 'file'], 'archive-name-collision'],
  ] as const)('%j then %j → %s', (first, second, code) => {
    const r = new NameRegistry();
    expect(r.add(first[0], first[1])).toBeNull();
    expect(r.add(second[0], second[1])).toMatchObject({ ok: false, status: 'invalid', code });
  });
});
