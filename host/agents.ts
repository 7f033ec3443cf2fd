// Copies in the agents' skill folders (docs/desktop.md): `<agent root>/<name>/` holds the
// skill's files exactly as approved plus `.skillpin.json`, the provenance. The host touches a
// folder only when it wrote it: the provenance names a mirror record, and that record lists
// the copy. Files the user changed or added in a copy are the user's: the host leaves them.
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, type Stats } from 'node:fs';
import { AGENT_HOME, DESKTOP_AGENTS, type DesktopAgentId } from '../lib/desktop/protocol/agents';
import { basename, dirname, join } from 'node:path';
import { AGENT_FOLDERS, AGENT_IDS, type AgentId, PROVENANCE_FILE } from '../lib/desktop/protocol/limits';
import { type AgentOutcome, isHttpOrigin } from '../lib/desktop/protocol/wire';
import { clearLeftovers, moveAside, namesIn, type Placement, removeIfEmpty, writeTreeAtomic } from './atomic';
import { type MirrorRecord, partitionOfRecord, sha256Hex } from './mirror';
import type { Places } from './places';

/** What `.skillpin.json` holds (as written; one read from a folder is only as sound as inspect() checks). */
export type Provenance = ReturnType<typeof provenanceOf>;

/** The desktop agents whose own folder (`~/.claude`, `~/.codex`, …) is in this home. */
export function agentsFound(home: string): DesktopAgentId[] {
  return DESKTOP_AGENTS.filter((agent) => existsSync(join(home, ...AGENT_HOME[agent].split('/'))));
}

export function agentRoot(places: Places, agent: AgentId): string {
  return join(places.home, ...AGENT_FOLDERS[agent].split('/'));
}

export function provenanceOf(record: MirrorRecord, agent: AgentId, now: number) {
  return {
    skillpin: 1 as const,
    note: 'Written by Skillpin from its verified mirror; removed by Skillpin when the skill is withdrawn. Not a skill file.',
    partition: partitionOfRecord(record),
    key: record.key,
    agent,
    origin: record.origin,
    url: record.url,
    name: record.name,
    revision: record.revision,
    digests: { skillMdLf: record.digestLf, skillMdRaw: record.digestRaw, archive: record.archiveSha256, files: record.files },
    keyFingerprint: record.keyFingerprint,
    verification: record.verification,
    approvedAt: new Date(record.approvedAt).toISOString(),
    writtenAt: new Date(now).toISOString(),
  };
}

/** The provenance names this record's copy: its key, and its partition (or the one it was adopted from). */
export function ownsProvenance(record: MirrorRecord, p: Provenance): boolean {
  return p.key === record.key && (p.partition === partitionOfRecord(record) || (record.formerPartition !== undefined && p.partition === record.formerPartition));
}

/** The record (of any browser) that lists `<agent>/<folder>` as its copy and that the provenance names, if one does. */
export function ownerOf(records: readonly MirrorRecord[], agent: AgentId, folder: string, p: Provenance): MirrorRecord | undefined {
  return records.find((r) => ownsProvenance(r, p) && r.agents.some((a) => a.agent === agent && a.folder === folder));
}

export type FolderState = { kind: 'absent' } | { kind: 'foreign' } | { kind: 'skillpin'; provenance: Provenance };

/** What is at `<root>/<name>`: nothing, a folder Skillpin's provenance marks, or anything else. */
export function inspect(root: string, name: string): FolderState {
  const dir = join(root, name);
  try {
    if (!lstatSync(dir).isDirectory()) return { kind: 'foreign' };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'absent' } : { kind: 'foreign' };
  }
  try {
    const p = JSON.parse(readFileSync(join(dir, PROVENANCE_FILE), 'utf8')) as Provenance;
    if (p.skillpin === 1 && typeof p.key === 'string' && typeof p.partition === 'string' && typeof p.revision === 'string' && listsFiles(p.digests)) {
      return { kind: 'skillpin', provenance: p };
    }
  } catch {
    // No readable provenance: not ours.
  }
  return { kind: 'foreign' };
}

/** The provenance's file list as a copy's is written (any program may write a `.skillpin.json`; one without it marks no copy). */
function listsFiles(digests: unknown): boolean {
  const files = (digests as { files?: unknown } | null)?.files;
  return (
    Array.isArray(files) && files.every((f: { path?: unknown; sha256?: unknown; size?: unknown } | null) => typeof f?.path === 'string' && typeof f.sha256 === 'string' && typeof f.size === 'number')
  );
}

type Digest = { sha256: string; size: number };
type Listed = Map<string, Digest>;

const listedFiles = (p: Provenance): Listed => new Map(p.digests.files.map((f) => [f.path, f]));

/** The entry is a plain file with the listed size and SHA-256. */
const matchesListed = (full: string, st: Stats, want: Digest | undefined): boolean => want !== undefined && st.isFile() && st.size === want.size && sha256Hex(readFileSync(full)) === want.sha256;

/** Paths (relative, `/`) of every entry under `dir` that is not a plain file or folder, or not listed. */
function changes(dir: string, listed: Listed): { unchanged: string[]; changed: string[] } {
  const unchanged: string[] = [];
  const changed: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (path === PROVENANCE_FILE) continue;
      const full = join(dir, ...path.split('/'));
      const st = lstatSync(full);
      if (st.isDirectory()) walk(path);
      else (matchesListed(full, st, listed.get(path)) ? unchanged : changed).push(path);
    }
  };
  walk('');
  return { unchanged, changed };
}

function removeEmptyDirs(dir: string): void {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (lstatSync(full).isDirectory()) removeEmptyDirs(full);
  }
  removeIfEmpty(dir);
}

/**
 * Removes the copy the host wrote at `<root>/<name>`: the whole folder when nothing in it
 * changed; otherwise only the unchanged files and the provenance, and the changed or added
 * files (returned) stay where they are. The folder is moved aside and judged again there before
 * anything is deleted, so a file the user adds after the first look is never deleted with it.
 */
export function removeCopy(root: string, name: string, provenance: Provenance): { kept: string[] } {
  const dir = join(root, name);
  const listed = listedFiles(provenance);
  if (changes(dir, listed).changed.length === 0) {
    const aside = moveAside(dir, (moved) => stillTheCopy(moved, provenance));
    if (aside !== 'put-back') {
      if (aside !== null) rmSync(aside, { recursive: true, force: true });
      return { kept: [] };
    }
  }
  const { unchanged, changed } = changes(dir, listed);
  // Each file is hashed again just before it goes: one the user edits meanwhile stays.
  for (const path of unchanged) if (fileMatches(join(dir, ...path.split('/')), listed.get(path))) rmSync(join(dir, ...path.split('/')), { force: true });
  rmSync(join(dir, PROVENANCE_FILE), { force: true });
  removeEmptyDirs(dir);
  return { kept: changed };
}

function fileMatches(full: string, want: Digest | undefined): boolean {
  try {
    return matchesListed(full, lstatSync(full), want);
  } catch {
    return false;
  }
}

/** The folder (moved aside) still holds no changed file and carries the same provenance (same partition, key and revision). */
function stillTheCopy(dir: string, p: Provenance): boolean {
  if (changes(dir, listedFiles(p)).changed.length !== 0) return false;
  const st = inspect(dirname(dir), basename(dir));
  return st.kind === 'skillpin' && st.provenance.partition === p.partition && st.provenance.key === p.key && st.provenance.revision === p.revision;
}

/** True when the copy at `<root>/<name>` holds exactly what its provenance lists. */
export function copyUnchanged(root: string, name: string, provenance: Provenance): boolean {
  const listed = listedFiles(provenance);
  const { unchanged, changed } = changes(join(root, name), listed);
  return changed.length === 0 && unchanged.length === listed.size;
}

/**
 * Writes the copy: the files and the provenance, put in place whole. `replacing` null: the name
 * must be free (a folder made there meanwhile is left alone); else the copy that is there, which
 * is replaced only while it is still exactly that copy. Throws `name-taken` otherwise.
 */
export function writeCopy(root: string, name: string, record: MirrorRecord, agent: AgentId, files: Map<string, Uint8Array>, now: number, replacing: Provenance | null): void {
  clearLeftovers(root);
  const tree = [...files].map(([path, bytes]) => ({ path, bytes }));
  tree.push({ path: PROVENANCE_FILE, bytes: Buffer.from(`${JSON.stringify(provenanceOf(record, agent, now), null, 2)}\n`) });
  const placement: Placement = replacing === null ? 'absent' : (moved) => stillTheCopy(moved, replacing);
  writeTreeAtomic(root, name, tree, { dir: 0o755, file: 0o644 }, placement);
}

// Copies no record names (docs/desktop.md): a host killed between noting a copy and writing it,
// or a host before version 1.1.0 killed between writing a copy and noting it, leaves a folder in
// an agent's skills folder whose provenance names one of the host's partitions but that no mirror
// record lists. Every sync (so every withdrawal and key revocation) and uninstall-host look for
// them and remove them as they remove any copy: files the user changed or added stay.

/**
 * Removes every copy in the agent folders whose provenance names one of `partitions` and that no
 * record of `records` lists; answers an outcome for each one it could name.
 */
export function sweepUnlisted(places: Places, partitions: ReadonlySet<string>, records: readonly MirrorRecord[]): AgentOutcome[] {
  const out: AgentOutcome[] = [];
  for (const agent of AGENT_IDS) {
    const root = agentRoot(places, agent);
    for (const name of namesIn(root).filter((n) => !n.startsWith('.'))) {
      const st = inspect(root, name);
      if (st.kind !== 'skillpin' || !partitions.has(st.provenance.partition)) continue;
      if (ownerOf(records, agent, name, st.provenance) !== undefined) continue;
      const { kept } = removeCopy(root, name, st.provenance);
      const p = st.provenance;
      if (isHttpOrigin(p.origin) && typeof p.url === 'string' && p.url.length <= 4096) out.push(sweptOutcome(p.origin, p.url, agent, name, kept));
    }
  }
  return out;
}

function sweptOutcome(origin: string, url: string, agent: AgentId, folder: string, kept: string[]): AgentOutcome {
  const why = 'Skillpin found a copy it had written that no mirror record listed (a write cut short) and removed it';
  return kept.length === 0
    ? { origin, url, agent, state: 'removed', folder, message: `${why}.` }
    : { origin, url, agent, state: 'copy-modified', folder, message: `${why}; files you changed or added stay: ${kept.slice(0, 10).join(', ')}.` };
}
