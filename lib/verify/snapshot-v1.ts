// agentskills-snapshot-v1 detached signatures (FORMATS.md §7).
//
// revision_input = ASCII-only JSON of [[path, size, "sha256:<hex raw>"], ...]
// sorted by path in code-point order; revision = "sha256:" + hex(SHA-256 of
// it); the signed payload is the ASCII-only JSON object
// {"contract","origin","revision","skillId","version"} with sorted keys. The
// key and signature come from the user's configuration, never from the origin.

import type { SnapshotReport } from '../types';
import { verifySignatureB64 } from './ed25519';
import { fileSetListing } from './file-set';
import { asciiBytes, asciiJsonString } from './json-ascii';
import { sha256Sync, toHex } from './sha256';

export const SNAPSHOT_CONTRACT = 'agentskills-snapshot-v1';
export const SNAPSHOT_MAX_FILES = 512;
export const SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024;

export type RevisionResult = { ok: true; input: string; revision: string } | { ok: false; code: string; message: string };

/** Why a path is refused by the file-set rules, or null when it is fine. */
function pathProblem(path: string): string | null {
  if (path.length === 0) return 'empty path';
  if (path.includes('\\')) return 'backslash in path';
  if (path.includes(':')) return 'colon in path';
  if (path.includes('\u0000')) return 'NUL in path';
  for (const segment of path.split('/')) {
    if (segment === '') return 'empty path segment (leading, trailing or double slash)';
    if (segment === '.' || segment === '..') return `"${segment}" path segment`;
  }
  return null;
}

/** Computes revision_input and revision for a file set; refuses sets that break the rules. */
export function snapshotRevisionInput(files: Map<string, Uint8Array>): RevisionResult {
  if (files.size === 0) return { ok: false, code: 'snapshot-empty', message: 'the file set is empty' };
  if (files.size > SNAPSHOT_MAX_FILES) return { ok: false, code: 'snapshot-too-many-files', message: `more than ${SNAPSHOT_MAX_FILES} files` };
  if (!files.has('SKILL.md')) return { ok: false, code: 'snapshot-no-skill-md', message: 'the file set has no root SKILL.md' };
  let total = 0;
  for (const [path, bytes] of files) {
    const problem = pathProblem(path);
    if (problem !== null) return { ok: false, code: 'snapshot-bad-path', message: `${problem}: ${asciiJsonString(path)}` };
    total += bytes.length;
    if (total > SNAPSHOT_MAX_BYTES) return { ok: false, code: 'snapshot-too-large', message: `the files exceed ${SNAPSHOT_MAX_BYTES} bytes` };
  }
  // revision_input is the file-set listing (sorted by path, ASCII-only JSON) of every file.
  const input = fileSetListing([...files].map(([path, bytes]) => ({ path, size: bytes.length, sha256: toHex(sha256Sync(bytes)) })));
  const revision = 'sha256:' + toHex(sha256Sync(asciiBytes(input)));
  return { ok: true, input, revision };
}

/** The exact bytes that are signed. */
export function snapshotPayload(fields: { origin: string; revision: string; skillId: string; version: string | null }): Uint8Array {
  // The keys in sorted order; a missing version is JSON null.
  const members: [string, string | null][] = [
    ['contract', SNAPSHOT_CONTRACT],
    ['origin', fields.origin],
    ['revision', fields.revision],
    ['skillId', fields.skillId],
    ['version', fields.version],
  ];
  const json = '{' + members.map(([key, value]) => `"${key}":${value === null ? 'null' : asciiJsonString(value)}`).join(',') + '}';
  return asciiBytes(json);
}

export interface SnapshotInput {
  files: Map<string, Uint8Array>;
  origin: string;
  skillId: string;
  version: string | null;
  /** The frontmatter `version` exists but is not a string: an error. */
  versionIsNonString?: boolean;
  /** Base64 of the raw 32-byte key. */
  publicKey: string;
  /** Base64 of the 64-byte signature. */
  signature: string;
  /** Expected revision ("sha256:<hex>" or bare hex). */
  revisionPin?: string;
  /** Expected version string. */
  versionPin?: string;
}

function failed(code: string, message: string, revision: string | null): SnapshotReport {
  return { state: 'failed', revision, message, code };
}

/** Checks a user-configured snapshot-v1 signature over verified bytes. Never throws. */
export async function verifySnapshot(input: SnapshotInput): Promise<SnapshotReport> {
  try {
    if (input.versionIsNonString === true) return failed('snapshot-version-not-string', 'the frontmatter version is not a string', null);
    const rev = snapshotRevisionInput(input.files);
    if (!rev.ok) return failed(rev.code, rev.message, null);
    const payload = snapshotPayload({ origin: input.origin, revision: rev.revision, skillId: input.skillId, version: input.version });
    const sig = await verifySignatureB64(input.publicKey, input.signature, payload);
    if (!sig.ok) return failed(`snapshot-${sig.code}`, `snapshot signature: ${sig.message}`, rev.revision);
    if (input.revisionPin !== undefined) {
      const pin = input.revisionPin.trim().toLowerCase();
      const want = pin.startsWith('sha256:') ? pin : 'sha256:' + pin;
      if (want !== rev.revision) return failed('snapshot-revision-pin', `revision ${rev.revision} differs from the pinned ${input.revisionPin}`, rev.revision);
    }
    if (input.versionPin !== undefined && input.version !== input.versionPin) {
      return failed('snapshot-version-pin', `version ${input.version === null ? 'null' : JSON.stringify(input.version)} differs from the pinned ${JSON.stringify(input.versionPin)}`, rev.revision);
    }
    return { state: 'verified', revision: rev.revision, message: 'snapshot-v1 signature verifies', code: 'snapshot-verified' };
  } catch (e) {
    return failed('snapshot-error', `snapshot check failed: ${e instanceof Error ? e.message : String(e)}`, null);
  }
}
