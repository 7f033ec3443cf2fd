// Entry names and limits shared by the zip and tar.gz targets, and the invariants every unpack
// outcome keeps: a known status and code, caps held, every path inside the skill root.
import fc from 'fast-check';
import { collisionKey } from '../../../lib/verify/archive-names';
import type { ArchiveResult } from '../../../lib/verify/archive';
import { hostileText } from './text';
import { checkCode, insideRoot } from '../invariants';
import { check, seen } from '../types';
import { resolveLimits } from '../../../lib/verify/archive-limits';

export const SAFE_FILES = ['SKILL.md', 'README.md', 'scripts/run.sh', 'refs/a.md', 'refs/deep/b.md', 'data.bin', 'é.md'];

export const hostileName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SAFE_FILES, 'refs/', 'scripts/', 'refs/deep/') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '../x',
      '../../.bashrc',
      '..',
      '.',
      './SKILL.md',
      'a/../b',
      'a/./b',
      'a//b',
      '/etc/passwd',
      '/',
      '//srv/share',
      '\\\\srv\\share',
      'C:\\x',
      'C:x',
      'c:/x',
      'a\\b',
      '..\\x',
      'a\u0000b',
      'SKILL.md\u0000.txt',
      'a\u0007',
      'a\u009b',
      '',
      'skill.md',
      'Skill.md',
      'SKILL.MD',
      'SKILL.md/',
      'refs',
      'refs/a.md/',
      'REFS/A.md',
      'e\u0301.md',
      'ß.md',
      'SS.md',
      'ss.md',
      '\u212a',
      'K',
      'scripts/run.sh/x',
      `${'a'.repeat(99)}/b`,
      'a'.repeat(300),
      '%2e%2e/x',
      '\u202eexe.md',
    ),
  },
  { weight: 1, arbitrary: hostileText(4) },
);

/** Caps small enough for generated archives to hit them. */
export const limits = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.record({ maxFiles: fc.nat(8), maxBytes: fc.nat(6000) }) },
  { weight: 1, arbitrary: fc.record({ maxFiles: fc.constantFrom(-1, 1.5, Number.NaN, 2 ** 60), maxBytes: fc.constantFrom(-1, 0.5, Number.POSITIVE_INFINITY) }, { requiredKeys: [] }) },
);

/**
 * A result from unpackArchive keeps the rules whatever the input: a known status and code; on
 * success every path is inside the root, names are unique after normalization and case folding,
 * the caps hold, and SKILL.md is the root file.
 */
export function checkUnpack(r: ArchiveResult, lim: { maxFiles?: number; maxBytes?: number } | undefined, where: string): void {
  seen(r.ok ? 'ok' : `${r.status}/${r.code}`);
  if (!r.ok) {
    check(r.status === 'invalid' || r.status === 'too-large' || r.status === 'unsupported', `${where}: status ${String(r.status)}`);
    checkCode(r.code, where);
    check(typeof r.message === 'string' && r.message.length > 0, `${where}: a refusal without a message`);
    // unpackArchive turns an exception inside a reader into archive-unreadable: none may reach it.
    check(r.code !== 'archive-unreadable', `${where}: a reader threw (${r.message})`);
    return;
  }
  const caps = resolveLimits(lim);
  check(r.entries.length <= caps.maxEntries, `${where}: ${r.entries.length} entries over the cap of ${caps.maxEntries}`);
  const files = r.entries.filter((e) => e.type === 'file');
  check(files.length <= caps.maxFiles, `${where}: ${files.length} files over the cap of ${caps.maxFiles}`);
  const total = files.reduce((n, e) => n + e.size, 0);
  check(total <= caps.maxBytes, `${where}: ${total} bytes unpacked over the cap of ${caps.maxBytes}`);
  const keys = new Set<string>();
  for (const e of r.entries) {
    check(insideRoot(e.path), () => `${where}: the path ${JSON.stringify(e.path)} leaves the skill root`);
    const k = `${e.type}:${collisionKey(e.path)}`;
    check(!keys.has(k), () => `${where}: ${JSON.stringify(e.path)} is listed twice`);
    keys.add(k);
    if (e.type === 'file') check(r.files.get(e.path)?.length === e.size, () => `${where}: the size of ${JSON.stringify(e.path)} differs from its bytes`);
  }
  check(r.files.size === files.length, `${where}: ${r.files.size} file bodies for ${files.length} files`);
  check(r.skillMd === r.files.get('SKILL.md'), `${where}: skillMd is not the root SKILL.md`);
}

/** Distinct safe files (SKILL.md among them) that a correct reader must hand back unchanged. */
export const cleanFiles = fc
  .tuple(fc.shuffledSubarray(SAFE_FILES.filter((f) => f !== 'SKILL.md')), fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: SAFE_FILES.length, maxLength: SAFE_FILES.length }))
  .map(([names, bodies]) => ['SKILL.md', ...names].map((name, i) => ({ name, data: bodies[i] as Uint8Array })));

export function sameFiles(r: ArchiveResult, files: { name: string; data: Uint8Array }[]): string | null {
  if (!r.ok) return `refused (${r.code}: ${r.message})`;
  for (const f of files) {
    const got = r.files.get(f.name);
    if (!got) return `${f.name} is missing`;
    if (got.length !== f.data.length || got.some((b, i) => b !== f.data[i])) return `${f.name} differs`;
  }
  return r.files.size === files.length ? null : `${r.files.size} files instead of ${files.length}`;
}
