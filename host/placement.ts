// Which agent folders a mirrored skill is copied to, and under which name (docs/desktop.md):
// the copies the user asked for are written, the others the host wrote are removed. Each step
// answers with an AgentOutcome for the extension to show.
import { grantsOf, needsConfirmation } from '../lib/desktop/grants';
import type { AgentId } from '../lib/desktop/limits';
import { baseFolderName, folderCandidates } from '../lib/desktop/names';
import type { AgentOutcome, AgentRequest } from '../lib/desktop/protocol';
import { parseFrontmatter } from '../lib/parse/skill-md';
import { agentRoot, copyUnchanged, inspect, removeCopy, writeCopy } from './agents';
import { type Mirror, type MirrorRecord, partitionOf } from './mirror';
import type { Places } from './places';

export interface HostContext {
  places: Places;
  mirror: Mirror;
  caller: string;
  now(): number;
}

const outcome = (record: MirrorRecord, agent: AgentId, state: AgentOutcome['state'], folder: string | null, message: string | null = null): AgentOutcome => ({
  origin: record.origin,
  url: record.url,
  agent,
  state,
  folder,
  message,
});

/** The record (of any caller) that lists `<agent>/<folder>` as its copy, if one does. */
function ownerOf(all: readonly MirrorRecord[], agent: AgentId, folder: string, partition: string, key: string): MirrorRecord | undefined {
  return all.find((r) => r.key === key && partitionOf(r.caller) === partition && r.agents.some((a) => a.agent === agent && a.folder === folder));
}

/** Removes this record's copy for `agent`, if the host wrote one. */
export function dropCopy(ctx: HostContext, record: MirrorRecord, agent: AgentId): AgentOutcome | null {
  const owned = record.agents.find((a) => a.agent === agent);
  if (owned === undefined) return null;
  record.agents = record.agents.filter((a) => a !== owned);
  const root = agentRoot(ctx.places, agent);
  const st = inspect(root, owned.folder);
  if (st.kind !== 'skillpin' || st.provenance.key !== record.key || st.provenance.partition !== partitionOf(record.caller)) {
    return outcome(record, agent, 'removed', owned.folder, 'The copy was already gone or is no longer the one Skillpin wrote; nothing was deleted.');
  }
  const { kept } = removeCopy(root, owned.folder, st.provenance);
  if (kept.length === 0) return outcome(record, agent, 'removed', owned.folder);
  return outcome(record, agent, 'copy-modified', owned.folder, `Skillpin removed its files; files you changed or added stay: ${kept.slice(0, 10).join(', ')}.`);
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
      const owner = ownerOf(all, agent, name, st.provenance.partition, st.provenance.key);
      if (owner === undefined) {
        if (name === base) return outcome(record, agent, 'name-taken', name, `${root}/${name} carries a Skillpin provenance file but no mirrored skill lists it; nothing was written.`);
        continue;
      }
      // The same skill, same content, handed over by another browser: its copy serves both.
      if (owner.key === record.key && owner.revision === record.revision) return outcome(record, agent, 'unchanged', name, 'Another browser’s copy of the same skill is already there.');
      continue;
    }
    writeCopy(root, name, record, agent, files, ctx.now());
    record.agents.push({ agent, folder: name });
    return outcome(record, agent, 'written', name, name === base ? null : `Another skill already uses "${base}" in this folder, so this one is "${name}".`);
  }
  return outcome(record, agent, 'name-taken', null, `No free folder name for "${base}" in ${root}; nothing was written.`);
}

/** Writes, keeps or refuses the copy for one agent the user picked. */
export function placeCopy(ctx: HostContext, record: MirrorRecord, request: AgentRequest, files: Map<string, Uint8Array>, all: readonly MirrorRecord[]): AgentOutcome {
  const { agent } = request;
  const grants = grantsOf(files.get('SKILL.md') ?? new Uint8Array(0), [...files.keys()]);
  if (needsConfirmation(grants) && request.confirmedRevision !== record.revision) {
    const dropped = dropCopy(ctx, record, agent);
    const what = [...grants.tools.map((t) => `frontmatter "${t}"`), ...grants.scripts.slice(0, 5)].join(', ');
    return outcome(record, agent, 'needs-confirmation', dropped?.folder ?? null, `This skill grants tools or carries scripts (${what}); confirm it for this agent to have it written.`);
  }
  const owned = record.agents.find((a) => a.agent === agent);
  if (owned !== undefined) {
    const root = agentRoot(ctx.places, agent);
    const st = inspect(root, owned.folder);
    const ours = st.kind === 'skillpin' && st.provenance.key === record.key && st.provenance.partition === partitionOf(record.caller);
    if (ours && st.provenance.revision === record.revision && copyUnchanged(root, owned.folder, st.provenance)) return outcome(record, agent, 'unchanged', owned.folder);
    if (ours && copyUnchanged(root, owned.folder, st.provenance)) {
      writeCopy(root, owned.folder, record, agent, files, ctx.now());
      return outcome(record, agent, 'written', owned.folder);
    }
    const dropped = dropCopy(ctx, record, agent);
    if (dropped !== null && dropped.state === 'copy-modified') return dropped;
  }
  return freshCopy(ctx, record, agent, files, all);
}
