// Atomic writes and the writer lock, over a temporary folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearLeftovers, writeFileAtomic, writeTreeAtomic } from '../../../host/atomic';
import { withLock } from '../../../host/lock';
import { type TempPlaces, tempPlaces } from '../../support/desktop';

let t: TempPlaces;
beforeEach(() => {
  t = tempPlaces();
  mkdirSync(t.root, { recursive: true });
});
afterEach(() => t.cleanup());

const modes = { dir: 0o700, file: 0o600 };
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('atomic writes', () => {
  it('a file is replaced whole and no temporary file stays', () => {
    const file = join(t.root, 'a', 'record.json');
    writeFileAtomic(file, bytes('one'));
    writeFileAtomic(file, bytes('two'));
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(join(t.root, 'a'))).toEqual(['record.json']);
  });

  it('a folder is swapped in whole: old files that the new tree lacks are gone', () => {
    writeTreeAtomic(
      t.root,
      'skill',
      [
        { path: 'SKILL.md', bytes: bytes('v1') },
        { path: 'old/x.md', bytes: bytes('x') },
      ],
      modes,
    );
    writeTreeAtomic(
      t.root,
      'skill',
      [
        { path: 'SKILL.md', bytes: bytes('v2') },
        { path: 'new/y.md', bytes: bytes('y') },
      ],
      modes,
    );
    expect(readFileSync(join(t.root, 'skill/SKILL.md'), 'utf8')).toBe('v2');
    expect(existsSync(join(t.root, 'skill/old'))).toBe(false);
    expect(readdirSync(t.root)).toEqual(['skill']);
  });

  it('a write that fails halfway leaves the old folder as it was and nothing beside it', () => {
    writeTreeAtomic(t.root, 'skill', [{ path: 'SKILL.md', bytes: bytes('v1') }], modes);
    // The same path twice: the second open ('wx') fails after the first file was written.
    expect(() =>
      writeTreeAtomic(
        t.root,
        'skill',
        [
          { path: 'SKILL.md', bytes: bytes('v2') },
          { path: 'SKILL.md', bytes: bytes('v3') },
        ],
        modes,
      ),
    ).toThrow();
    expect(readFileSync(join(t.root, 'skill/SKILL.md'), 'utf8')).toBe('v1');
    expect(readdirSync(t.root)).toEqual(['skill']);
  });

  it('leftovers of a crashed write are cleared, and nothing else', () => {
    for (const n of ['.skillpin-tmp-1', '.skillpin-old-2', 'keep', '.other']) mkdirSync(join(t.root, n));
    clearLeftovers(t.root);
    expect(readdirSync(t.root).sort()).toEqual(['.other', 'keep']);
  });
});

describe('the writer lock', () => {
  it('is released after the work, also when it throws, and a dead holder’s lock is taken over', () => {
    expect(withLock(t.root, () => 5)).toBe(5);
    expect(() =>
      withLock(t.root, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(join(t.root, '.lock'))).toBe(false);
    writeFileSync(join(t.root, '.lock'), '999999999');
    expect(withLock(t.root, () => 'taken')).toBe('taken');
  });
});
