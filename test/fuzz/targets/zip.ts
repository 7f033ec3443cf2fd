// unpackArchive(…, 'zip') (FORMATS.md §6.3–6.4): zip files built entry by entry with hostile
// names, Unix modes (links, devices), methods, encryption flags, data descriptors, ZIP64 fields,
// central and local headers that disagree, offsets that point elsewhere, huge declared sizes,
// duplicate names, damaged end records; then byte edits. Clean archives must come back intact.
import fc from 'fast-check';
import { unpackArchive } from '../../../lib/verify/archive';
import { buildZip, type ZipEntrySpec, type ZipOptions } from '../../support/archive-builder';
import { checkUnpack, cleanFiles, hostileName, limits, sameFiles } from '../arbitraries/archive';
import { applyEdits, edit, utf8 } from '../arbitraries/text';
import { callAsync, check, type FuzzTarget } from '../types';

const size = fc.constantFrom(0, 1, 10, 0xffff, 0x7fffffff, 0xfffffffe, 0xffffffff, 17 * 1024 * 1024);

const headerOverrides = fc.record(
  {
    name: fc.oneof(hostileName, fc.constant(new Uint8Array([0xff, 0xfe]))),
    flags: fc.constantFrom(0, 1, 8, 0x40, 0x800),
    method: fc.constantFrom(0, 8, 12, 99),
    crc: fc.nat(),
    compressedSize: size,
    size,
  },
  { requiredKeys: [] },
);

const entrySpec: fc.Arbitrary<ZipEntrySpec> = fc.record(
  {
    name: fc.oneof(
      { weight: 8, arbitrary: hostileName },
      { weight: 1, arbitrary: fc.constantFrom(new Uint8Array([0xc3, 0x28]), new Uint8Array([0x61, 0x00, 0x62]), new Uint8Array([0xed, 0xa0, 0x80])) },
    ),
    data: fc.oneof(
      fc.constant(utf8('---\nname: fuzz\ndescription: A fuzzed skill.\n---\n')),
      fc.uint8Array({ maxLength: 80 }),
      fc.oneof({ weight: 4, arbitrary: fc.nat(1500) }, { weight: 1, arbitrary: fc.nat(9000) }).map((n) => new Uint8Array(n)),
    ),
    method: fc.constantFrom(0, 8, 8, 12, 14, 99),
    mode: fc.constantFrom(0o100644, 0o040755, 0o120777, 0o020644, 0o060644, 0o010644, 0o140755, 0o644),
    externalAttributes: fc.constantFrom(0, 0x10, 0x20, 0xffffffff),
    madeBy: fc.constantFrom(20, 0x031e, 0x131e, 0x0a14, 0xffff),
    encrypted: fc.boolean(),
    flags: fc.constantFrom(0, 0x40, 0x800, 0x2000),
    dataDescriptor: fc.boolean(),
    zip64: fc.boolean(),
    central: headerOverrides,
    local: headerOverrides,
    localOffsetOf: fc.nat(4),
    localOffset: fc.constantFrom(0, 1, 30, 0xffffffff, 0x7fffffff),
    omitLocal: fc.boolean(),
  },
  { requiredKeys: ['name'] },
);

/** Optional fields are left out most of the time so that most entries stay close to valid. */
const quietEntry = fc
  .tuple(
    entrySpec,
    fc.array(fc.constantFrom('method', 'mode', 'externalAttributes', 'madeBy', 'encrypted', 'flags', 'dataDescriptor', 'zip64', 'central', 'local', 'localOffsetOf', 'localOffset', 'omitLocal'), {
      maxLength: 2,
    }),
    fc.boolean(),
  )
  .map(([spec, keep, plain]) => {
    const out: ZipEntrySpec = { name: spec.name, ...(spec.data !== undefined ? { data: spec.data } : {}) };
    if (!plain) for (const k of keep) (out as unknown as Record<string, unknown>)[k] = (spec as unknown as Record<string, unknown>)[k];
    return out;
  });

const options: fc.Arbitrary<ZipOptions> = fc.record(
  {
    omitEnd: fc.boolean(),
    endEntryCount: fc.constantFrom(0, 1, 2, 0xffff),
    centralOffsetDelta: fc.integer({ min: -4, max: 4 }),
    comment: fc.constantFrom('', 'PK\u0005\u0006', 'x'.repeat(40)),
    zip64End: fc.boolean(),
    truncateTo: fc.nat(400),
    trailing: fc.uint8Array({ maxLength: 8 }),
  },
  { requiredKeys: [] },
);

const hostileZip = fc
  .record({
    entries: fc.array(quietEntry, { minLength: 0, maxLength: 6 }),
    withSkillMd: fc.boolean(),
    options: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: options }),
    edits: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }) }),
    level: fc.constantFrom(0 as const, 1 as const, 1 as const, 1 as const, 6 as const, 9 as const),
  })
  .map((p) => {
    const entries = p.withSkillMd ? [{ name: 'SKILL.md', data: utf8('---\nname: fuzz\n---\n') }, ...p.entries] : p.entries;
    return applyEdits(buildZip(entries, { ...p.options, level: p.level }), p.edits);
  });

export const zipTarget: FuzzTarget = {
  id: 'zip',
  entry: "unpackArchive(…, 'zip') (lib/verify/archive.ts, archive-zip.ts)",
  inputs:
    'zip files with hostile names (../, absolute, drive, UNC, backslash, NUL, case and NFC twins), links and devices, methods, encryption, data descriptors, ZIP64, disagreeing headers, huge declared sizes, bad offsets and end records, byte edits; small caps; clean archives as an oracle',
  property: () =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 8, arbitrary: fc.tuple(fc.constant('hostile' as const), hostileZip, fc.constant([] as { name: string; data: Uint8Array }[])) },
        { weight: 1, arbitrary: fc.tuple(fc.constant('bytes' as const), fc.uint8Array({ maxLength: 200 }), fc.constant([] as { name: string; data: Uint8Array }[])) },
        {
          weight: 2,
          arbitrary: cleanFiles.chain((files) =>
            fc.tuple(
              fc.constant('clean' as const),
              fc.constant(
                buildZip(
                  files.map((f) => ({ name: f.name, data: f.data })),
                  { level: 1 },
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
        const r = await callAsync('unpackArchive', () => unpackArchive(bytes, 'zip', useLimits));
        checkUnpack(r, useLimits, 'zip');
        if (kind === 'clean') {
          const problem = sameFiles(r, files);
          check(problem === null, `a well-formed zip was not unpacked intact: ${problem}`);
        }
      },
    ),
};
