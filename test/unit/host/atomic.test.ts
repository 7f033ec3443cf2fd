// Atomic writes and the writer lock, over a temporary folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inspect, removeCopy, writeCopy } from '../../../host/agents';
import { clearLeftovers, testHooks, writeFileAtomic, writeTreeAtomic } from '../../../host/atomic';
import { withLock } from '../../../host/lock';
import { Mirror, type MirrorRecord } from '../../../host/mirror';
import { answer } from '../../../host/native-host';
import { places as makePlaces, mirrorDir } from '../../../host/places';
import { CHROME_CALLER, choices, messagesFor, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';

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

describe('nothing the user made is deleted', () => {
  const p = () => makePlaces({ home: t.home, dataDir: t.dataDir });
  const root = () => join(t.home, '.claude', 'skills');

  async function written(): Promise<{ record: MirrorRecord; files: Map<string, Uint8Array> }> {
    const { sync, puts } = await messagesFor([textSkill('alpha', skillMd('alpha', 'A'))], choices(['claude-code']));
    const ctx = { allowed: true, caller: CHROME_CALLER, places: p(), now: () => 0 };
    answer(Buffer.from(JSON.stringify(sync)), ctx);
    answer(Buffer.from(JSON.stringify(puts[0])), ctx);
    const record = new Mirror(mirrorDir(p())).records()[0] as MirrorRecord;
    return { record, files: new Map([['SKILL.md', new TextEncoder().encode(skillMd('alpha', 'A'))]]) };
  }

  it('a new copy is never put over a folder the user made after Skillpin looked, not even an empty one', async () => {
    const { record, files } = await written();
    mkdirSync(join(root(), 'mine'));
    writeFileSync(join(root(), 'mine', 'notes.md'), 'the user’s');
    expect(() => writeCopy(root(), 'mine', record, 'claude-code', files, 0, null)).toThrow(/not the folder Skillpin expected/);
    expect(readdirSync(join(root(), 'mine'))).toEqual(['notes.md']);
    mkdirSync(join(root(), 'empty'));
    expect(() => writeCopy(root(), 'empty', record, 'claude-code', files, 0, null)).toThrow(/not the folder Skillpin expected/);
    expect(readdirSync(join(root(), 'empty'))).toEqual([]);
    // Made between the reservation and the rename: the rename fails and the user's file stays.
    testHooks.beforePlace = (target) => writeFileSync(join(target, 'late.md'), 'the user’s');
    try {
      expect(() => writeCopy(root(), 'late', record, 'claude-code', files, 0, null)).toThrow(/not the folder Skillpin expected/);
    } finally {
      testHooks.beforePlace = undefined;
    }
    expect(readdirSync(join(root(), 'late'))).toEqual(['late.md']);
  });

  it('a copy the user changes after Skillpin checked it is put back, not deleted: their file stays', async () => {
    await written();
    const st = inspect(root(), 'alpha');
    if (st.kind !== 'skillpin') throw new Error('no copy');
    testHooks.beforeAside = (dir) => writeFileSync(join(dir, 'notes.md'), 'added by the user');
    let kept: string[];
    try {
      kept = removeCopy(root(), 'alpha', st.provenance).kept;
    } finally {
      testHooks.beforeAside = undefined;
    }
    expect(kept).toEqual(['notes.md']);
    expect(readdirSync(join(root(), 'alpha'))).toEqual(['notes.md']);
    expect(readdirSync(root())).toEqual(['alpha']);
  });

  it('replacing a copy the user changed after Skillpin checked it reports name-taken and leaves it', async () => {
    const { record, files } = await written();
    const st = inspect(root(), 'alpha');
    if (st.kind !== 'skillpin') throw new Error('no copy');
    testHooks.beforeAside = (dir) => writeFileSync(join(dir, 'SKILL.md'), 'edited by the user');
    try {
      expect(() => writeCopy(root(), 'alpha', record, 'claude-code', files, 0, st.provenance)).toThrow(/not the folder Skillpin expected/);
    } finally {
      testHooks.beforeAside = undefined;
    }
    expect(readFileSync(join(root(), 'alpha', 'SKILL.md'), 'utf8')).toBe('edited by the user');
    expect(readdirSync(root())).toEqual(['alpha']);
  });
});
