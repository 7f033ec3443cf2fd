// A mirrored skill's revision is stored on the user's disk by every version of the desktop program:
// the digest of the same facts must not change from one version to the next.
import { describe, expect, it } from 'vitest';
import { skillKey, skillRevision } from '../../../../lib/desktop/protocol/revision';

const FACTS = {
  origin: 'https://publisher.example',
  url: 'https://publisher.example/skills/api/SKILL.md',
  name: 'api-client',
  type: 'archive',
  digestLf: 'a'.repeat(64),
  digestRaw: 'b'.repeat(64),
  archiveSha256: 'c'.repeat(64),
  keyFingerprint: 'd'.repeat(64),
  verification: 'signed',
  approvedAt: 1_700_000_000_000,
  files: [
    { path: 'scripts/run.sh', sha256: 'e'.repeat(64), size: 12 },
    { path: 'SKILL.md', sha256: 'f'.repeat(64), size: 340 },
  ],
} as unknown as Parameters<typeof skillRevision>[0];

describe('skill revision', () => {
  it('is the digest it has always been for the same facts, files in path order', () => {
    expect(skillRevision(FACTS)).toBe(REVISION);
    expect(skillRevision({ ...FACTS, files: [...FACTS.files].reverse() })).toBe(REVISION);
  });

  it('changes with any fact', () => {
    expect(skillRevision({ ...FACTS, approvedAt: 1_700_000_000_001 })).not.toBe(REVISION);
    expect(skillRevision({ ...FACTS, files: FACTS.files.slice(1) })).not.toBe(REVISION);
  });

  it('names the folder by origin and URL', () => {
    expect(skillKey({ origin: FACTS.origin, url: FACTS.url })).toBe(KEY);
  });
});

/** sha256 of the JSON array ['skillpin-mirror-revision-1', the facts in order, [path, sha256, size] by path]. */
const REVISION = '9653d70042672ceef2b8a444601a2ed9032e615405f04787892d864f261ac04a';
/** sha256 of `${origin} ${url}`. */
const KEY = '234fd07e9dc661488588c1c733b336af89cfe0892da74b176e912bd3099d46dd';
