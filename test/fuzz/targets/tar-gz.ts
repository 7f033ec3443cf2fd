// unpackArchive(…, 'tar.gz') (FORMATS.md §6.3–6.4): tar streams built header by header with
// hostile names, every type flag (links, devices, FIFOs, PAX, GNU long names, global headers),
// PAX records that rename, resize or mark sparse files, huge octal and base-256 sizes, prefixes,
// bad checksums, missing or extra end blocks; gzip with several members, trailing bytes or a cut;
// then byte edits. Clean archives must come back intact.
import fc from 'fast-check';
import { unpackArchive } from '../../../lib/verify/archive';
import { buildTar, buildTarGz, gzip, type TarEntrySpec, type TarOptions } from '../../support/archive-builder';
import { checkUnpack, cleanFiles, hostileName, limits, sameFiles } from '../arbitraries/archive';
import { applyEdits, edit, utf8 } from '../arbitraries/text';
import { callAsync, check, type FuzzTarget } from '../types';

const paxValue = fc.oneof(hostileName, fc.constantFrom('0', '10', '99999999999999999999', '-1', '1e3', ' 5', ''));
const pax = fc.dictionary(fc.constantFrom('path', 'path', 'size', 'linkpath', 'GNU.sparse.map', 'mtime', 'comment', 'uname'), paxValue, { minKeys: 1, maxKeys: 3 });

const entrySpec: fc.Arbitrary<TarEntrySpec> = fc.record(
  {
    name: hostileName,
    data: fc.oneof(
      fc.constant(utf8('---\nname: fuzz\n---\n')),
      fc.uint8Array({ maxLength: 80 }),
      fc.oneof({ weight: 4, arbitrary: fc.nat(1500) }, { weight: 1, arbitrary: fc.nat(9000) }).map((n) => new Uint8Array(n)),
    ),
    typeflag: fc.constantFrom('0', '0', '\u0000', '5', '1', '2', '3', '4', '6', '7', 'x', 'g', 'L', 'K', 'S', 'V', 'Z'),
    linkname: fc.constantFrom('SKILL.md', '../../etc/passwd', '/etc/passwd'),
    mode: fc.constantFrom(0o644, 0o755, 0o4755, 0o7777),
    headerSize: fc.constantFrom(0, 1, 511, 512, 513, 0o77777777777, 17 * 1024 * 1024, 64 * 1024 + 1),
    base256Size: fc.boolean(),
    pax,
    longName: hostileName,
    longLink: hostileName,
    prefix: fc.constantFrom('', 'ref', '..', '/abs', 'a'.repeat(155)),
    rawName: fc.constantFrom(new Uint8Array([0xff, 0xfe, 0x2f]), new Uint8Array(100).fill(0x61), new Uint8Array([0x2e, 0x2e, 0x2f, 0x78])),
    format: fc.constantFrom<'ustar' | 'gnu' | 'v7'>('ustar', 'gnu', 'v7'),
    badChecksum: fc.boolean(),
  },
  { requiredKeys: ['name'] },
);

/** Most entries keep one or two of the optional fields, so that most streams stay close to valid. */
const quietEntry = fc
  .tuple(
    entrySpec,
    fc.array(fc.constantFrom('typeflag', 'linkname', 'mode', 'headerSize', 'base256Size', 'pax', 'longName', 'longLink', 'prefix', 'rawName', 'format', 'badChecksum'), { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([spec, keep, plain]) => {
    const out: TarEntrySpec = { name: spec.name, ...(spec.data !== undefined ? { data: spec.data } : {}) };
    if (!plain) for (const k of keep) (out as unknown as Record<string, unknown>)[k] = (spec as unknown as Record<string, unknown>)[k];
    return out;
  });

const tarOptions: fc.Arbitrary<TarOptions> = fc.record(
  { endBlocks: fc.constantFrom(0, 1, 2, 3), recordSize: fc.constantFrom(512, 10240), trailing: fc.uint8Array({ minLength: 1, maxLength: 8 }), truncateTo: fc.nat(3000) },
  { requiredKeys: [] },
);

const gzipOptions = fc.record({ members: fc.constantFrom(1, 2, 3), trailing: fc.uint8Array({ minLength: 1, maxLength: 10 }), truncateTo: fc.nat(600) }, { requiredKeys: [] });

/** Mostly fast levels (stored blocks and level 1 reach the inflater too); level 9 now and then. */
const compression = fc.constantFrom(0 as const, 1 as const, 1 as const, 1 as const, 6 as const, 9 as const);

const hostileTarGz = fc
  .record({
    entries: fc.array(quietEntry, { maxLength: 6 }),
    withSkillMd: fc.boolean(),
    tar: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: tarOptions }),
    gzip: fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: gzipOptions }),
    level: compression,
    tarEdits: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) }),
    gzEdits: fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 2 }) }),
  })
  .map((p) => {
    const entries = p.withSkillMd ? [{ name: 'SKILL.md', data: utf8('---\nname: fuzz\n---\n') }, ...p.entries] : p.entries;
    // Edits go into the tar stream (its headers are where the reader's rules are) before it is
    // compressed, and sometimes into the gzip bytes as well.
    const tar = applyEdits(buildTar(entries, p.tar), p.tarEdits);
    return applyEdits(gzip(tar, { ...p.gzip, level: p.level }), p.gzEdits);
  });

export const tarGzTarget: FuzzTarget = {
  id: 'tar-gz',
  entry: "unpackArchive(…, 'tar.gz') (lib/verify/archive.ts, archive-tar.ts, archive-inflate.ts)",
  inputs:
    'tar.gz files with hostile names, every type flag, PAX paths, sizes and sparse keys, GNU long names, prefixes, huge octal and base-256 sizes, bad checksums, end-block and gzip-member damage, byte edits; small caps; clean archives as an oracle',
  property: () =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 8, arbitrary: fc.tuple(fc.constant('hostile' as const), hostileTarGz, fc.constant([] as { name: string; data: Uint8Array }[])) },
        {
          weight: 1,
          arbitrary: fc.tuple(
            fc.constant('bytes' as const),
            fc.uint8Array({ maxLength: 200 }).map((b) => (b.length >= 2 ? Uint8Array.from([0x1f, 0x8b, ...b.subarray(2)]) : b)),
            fc.constant([] as { name: string; data: Uint8Array }[]),
          ),
        },
        {
          weight: 2,
          arbitrary: cleanFiles.chain((files) =>
            fc.tuple(
              fc.constant('clean' as const),
              fc.constant(
                buildTarGz(
                  files.map((f) => ({ name: f.name, data: f.data })),
                  { gzip: { level: 1 } },
                ),
              ),
              fc.constant(files),
            ),
          ),
        },
      ),
      limits,
      async ([kind, bytes, files], lim) => {
        const useLimits = kind === 'clean' ? undefined : lim;
        const r = await callAsync('unpackArchive', () => unpackArchive(bytes, 'tar.gz', useLimits));
        checkUnpack(r, useLimits, 'tar.gz');
        if (kind === 'clean') {
          const problem = sameFiles(r, files);
          check(problem === null, `a well-formed tar.gz was not unpacked intact: ${problem}`);
        }
      },
    ),
};
