// The files an archive gained, lost or changed since its approval, with both texts of text files.
import { describe, expect, it } from 'vitest';
import { archiveFileChanges, MAX_TEXT_DIFF_BYTES, MAX_TEXT_DIFF_TOTAL } from '../../../lib/verify/file-changes';

const enc = new TextEncoder();
const f = (path: string, sha: string, size = 1) => ({ path, size, sha256: sha.repeat(64) });

describe('archiveFileChanges', () => {
  it('lists added, removed and changed files by path, and leaves equal ones out', () => {
    const before = [f('same.md', 'a'), f('gone.md', 'b'), f('run.sh', 'c')];
    const after = [f('same.md', 'a'), f('run.sh', 'd'), f('new.md', 'e')];
    const bytes = {
      before: new Map([
        ['gone.md', enc.encode('old\n')],
        ['run.sh', enc.encode('echo 1\n')],
      ]),
      after: new Map([
        ['run.sh', enc.encode('echo 2\n')],
        ['new.md', enc.encode('fresh\n')],
      ]),
    };
    expect(archiveFileChanges(before, after, bytes)).toEqual([
      { path: 'gone.md', change: 'removed', before: { size: 1, sha256: 'b'.repeat(64) }, after: null, text: { before: 'old\n', after: '' } },
      { path: 'new.md', change: 'added', before: null, after: { size: 1, sha256: 'e'.repeat(64) }, text: { before: '', after: 'fresh\n' } },
      { path: 'run.sh', change: 'changed', before: { size: 1, sha256: 'c'.repeat(64) }, after: { size: 1, sha256: 'd'.repeat(64) }, text: { before: 'echo 1\n', after: 'echo 2\n' } },
    ]);
  });

  it('gives no text for binary, non-UTF-8, oversized or unstored files', () => {
    const before = [f('bin', 'a'), f('latin1', 'b'), f('big', 'c'), f('unstored', 'd')];
    const after = [f('bin', '1'), f('latin1', '2'), f('big', '3'), f('unstored', '4')];
    const bytes = {
      before: new Map([
        ['bin', new Uint8Array([1, 0, 2])],
        ['latin1', new Uint8Array([0xe9])],
        ['big', new Uint8Array(MAX_TEXT_DIFF_BYTES + 1).fill(0x61)],
      ]),
      after: new Map([
        ['bin', enc.encode('x')],
        ['latin1', enc.encode('é')],
        ['big', enc.encode('y')],
        ['unstored', enc.encode('z')],
      ]),
    };
    expect(archiveFileChanges(before, after, bytes).map((c) => [c.path, c.text])).toEqual([
      ['big', null],
      ['bin', null],
      ['latin1', null],
      ['unstored', null],
    ]);
  });

  it('keeps the texts of one answer bounded: past the total, files are listed without text', () => {
    const n = Math.ceil(MAX_TEXT_DIFF_TOTAL / (200 * 1024)) + 2;
    const text = 'x'.repeat(100 * 1024);
    const before = Array.from({ length: n }, (_, i) => f(`f${i}`, 'a', text.length));
    const after = Array.from({ length: n }, (_, i) => f(`f${i}`, 'b', text.length));
    const map = new Map(before.map((x) => [x.path, enc.encode(text)]));
    const changes = archiveFileChanges(before, after, { before: map, after: map });
    expect(changes).toHaveLength(n);
    const withText = changes.filter((c) => c.text !== null).length;
    expect(withText).toBeGreaterThan(0);
    expect(withText).toBeLessThan(n);
    expect(withText * 2 * text.length).toBeLessThanOrEqual(MAX_TEXT_DIFF_TOTAL);
  });
});
