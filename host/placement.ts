// Which agent folders a mirrored skill is copied to, and under which name (docs/desktop.md):
// the copies the user asked for are written, the others the host wrote are removed. Each step
// answers with an AgentOutcome for the extension to show.
//
// A new copy is first noted in the mirror record (the intent), then written: a crash between the
// two leaves a record naming a copy that may be absent or whole, never a copy no record names. A
// copy is put in place only where nothing is (a folder the user made meanwhile stays theirs), and
// replaced or removed only while it is still exactly the copy Skillpin wrote.
import { join } from 'node:path';
import { grantsOf, needsConfirmation } from '../lib/desktop/protocol/grants';
import type { AgentId } from '../lib/desktop/protocol/limits';
import { baseFolderName, folderCandidates } from '../lib/desktop/protocol/names';
import type { AgentOutcome, AgentRequest } from '../lib/desktop/protocol/wire';
import { parseFrontmatter } from '../lib/parse/skill-md';
import { removeIfEmpty } from './atomic';
import { agentRoot, copyUnchanged, inspect, ownerOf, ownsProvenance, removeCopy, writeCopy } from './agents';
import type { Mirror, MirrorRecord } from './mirror';
import type { Places } from './places';

export interface HostContext {
  places: Places;
  mirror: Mirror;
  caller: string;
  /** The browser profile's id (null: an extension from before profiles had ids). */
  profile: string | null;
  /** partitionOf(caller, profile): the part of the mirror this browser profile owns. */
  partition: string;
  now(): number;
  /** False once uninstall-host removed the installation: a write then changes nothing. Absent: installed. */
  installed?(): boolean;
}

export const outcome = (record: MirrorRecord, agent: AgentId, state: AgentOutcome['state'], folder: string | null, message: string | null = null): AgentOutcome => ({
  origin: record.origin,
  url: record.url,
  agent,
  state,
  folder,
  message,
});

/** Tests only: SKILLPIN_TEST_CRASH names a moment at which the process dies at once (as a kill -9 would). */
export function crashPoint(name: string): void {
  if (process.env.SKILLPIN_TEST_CRASH === name) process.kill(process.pid, 'SIGKILL');
}

/** Removes this record's copy for `agent`, if the host wrote one. */
export function dropCopy(ctx: HostContext, record: MirrorRecord, agent: AgentId): AgentOutcome | null {
  const owned = record.agents.find((a) => a.agent === agent);
  if (owned === undefined) return null;
  record.agents = record.agents.filter((a) => a !== owned);
  const root = agentRoot(ctx.places, agent);
  const st = inspect(root, owned.folder);
  if (st.kind !== 'skillpin' || !ownsProvenance(record, st.provenance)) {
    // The empty folder that reserved the name, left by a host killed before the copy was renamed onto it.
    if (st.kind === 'foreign') removeIfEmpty(join(root, owned.folder));
    return outcome(record, agent, 'removed', owned.folder, 'The copy was already gone or is no longer the one Skillpin wrote; nothing was deleted.');
  }
  const { kept } = removeCopy(root, owned.folder, st.provenance);
  if (kept.length === 0) return outcome(record, agent, 'removed', owned.folder);
  return outcome(record, agent, 'copy-modified', owned.folder, `Skillpin removed its files; files you changed or added stay: ${kept.slice(0, 10).join(', ')}.`);
}

const isNameTaken = (error: unknown): boolean => (error as { code?: string }).code === 'name-taken';

/** Notes the copy in the record, then writes it; a name taken meanwhile takes the note back. */
function writeNoted(ctx: HostContext, record: MirrorRecord, agent: AgentId, name: string, files: Map<string, Uint8Array>): boolean {
  record.agents.push({ agent, folder: name });
  ctx.mirror.rewrite(record);
  try {
    writeCopy(agentRoot(ctx.places, agent), name, record, agent, files, ctx.now(), null);
  } catch (error) {
    record.agents = record.agents.filter((a) => !(a.agent === agent && a.folder === name));
    ctx.mirror.rewrite(record);
    if (isNameTaken(error)) return false;
    throw error;
  }
  crashPoint('after-copy-write');
  return true;
}

function freshCopy(ctx: HostContext, record: MirrorRecord, agent: AgentId, files: Map<string, Uint8Array>, all: readonly MirrorRecord[]): AgentOutcome {
  const root = agentRoot(ctx.places, agent);
  const base = baseFolderName(parseFrontmatter(files.get('SKILL.md') ?? new Uint8Array(0)).name, record.name);
  for (const name of folderCandidates(base, record.origin)) {
    const st = inspect(root, name);
    if (st.kind === 'foreign') {
      if (name === base) return outcome(record, agent, 'name-taken', name, `${root} already has a folder "${name}" that Skillpin did not write; nothing was written.`);
      continue;
    }
    if (st.kind === 'skillpin') {
      const owner = ownerOf(all, agent, name, st.provenance);
      if (owner === undefined) {
        if (name === base) return outcome(record, agent, 'name-taken', name, `${root}/${name} carries a Skillpin provenance file but no mirrored skill lists it; nothing was written.`);
        continue;
      }
      // The same skill, same content, handed over by another browser: its copy serves both.
      if (owner.key === record.key && owner.revision === record.revision) return outcome(record, agent, 'unchanged', name, 'Another browser’s copy of the same skill is already there.');
      continue;
    }
    if (!writeNoted(ctx, record, agent, name, files)) {
      return outcome(record, agent, 'name-taken', name, `A folder "${name}" appeared in ${root} while Skillpin was writing; it was left as it is and nothing was written.`);
    }
    return outcome(record, agent, 'written', name, name === base ? null : `Another skill already uses "${base}" in this folder, so this one is "${name}".`);
  }
  return outcome(record, agent, 'name-taken', null, `No free folder name for "${base}" in ${root}; nothing was written.`);
}

/** What a skill grants, as the confirmation rule reads it; null when it needs no confirmation. */
export function grantsNeedingConfirmation(files: ReadonlyMap<string, Uint8Array>): string | null {
  // Judged by the bytes as well as the names, as the extension's plan judges them.
  const reviewed = [...files].map(([path, bytes]) => ({ path, bytes }));
  const grants = grantsOf(files.get('SKILL.md') ?? new Uint8Array(0), reviewed);
  if (!needsConfirmation(grants)) return null;
  return [...grants.tools.map((t) => `frontmatter "${t}"`), ...grants.scripts.slice(0, 5)].join(', ');
}

/** Writes, keeps or refuses the copy for one agent the user picked. */
export function placeCopy(ctx: HostContext, record: MirrorRecord, request: AgentRequest, files: Map<string, Uint8Array>, all: readonly MirrorRecord[]): AgentOutcome {
  const { agent } = request;
  const what = grantsNeedingConfirmation(files);
  if (what !== null && request.confirmedRevision !== record.revision) {
    const dropped = dropCopy(ctx, record, agent);
    return outcome(record, agent, 'needs-confirmation', dropped?.folder ?? null, `This skill grants tools or carries scripts (${what}); confirm it for this agent to have it written.`);
  }
  const owned = record.agents.find((a) => a.agent === agent);
  if (owned !== undefined) {
    const root = agentRoot(ctx.places, agent);
    const st = inspect(root, owned.folder);
    const ours = st.kind === 'skillpin' && ownsProvenance(record, st.provenance) && copyUnchanged(root, owned.folder, st.provenance);
    if (ours && st.provenance.revision === record.revision && st.provenance.partition !== record.formerPartition) return outcome(record, agent, 'unchanged', owned.folder);
    if (ours) {
      try {
        writeCopy(root, owned.folder, record, agent, files, ctx.now(), st.provenance);
        return outcome(record, agent, 'written', owned.folder);
      } catch (error) {
        if (!isNameTaken(error)) throw error;
        record.agents = record.agents.filter((a) => a !== owned);
        return outcome(record, agent, 'name-taken', owned.folder, `${root}/${owned.folder} changed while Skillpin was replacing it; it was left as it is.`);
      }
    }
    const dropped = dropCopy(ctx, record, agent);
    if (dropped !== null && dropped.state === 'copy-modified') return dropped;
  }
  return freshCopy(ctx, record, agent, files, all);
}
