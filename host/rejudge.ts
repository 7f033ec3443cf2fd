// The first sync after an update (docs/desktop.md): copies written under older rules are judged
// again under the rules of this version. A skill with version-control or tool metadata is
// removed from the mirror and from every agent folder; a copy of a skill that needs confirmation
// the sync does not carry is removed. Either way the user is told what it was and that, having
// sat in the agent's folder, it may already have run.
import type { AgentOutcome, SyncEntry } from '../lib/desktop/protocol/wire';
import { metadataIn } from '../lib/desktop/protocol/paths';
import { skillKey } from '../lib/desktop/protocol/revision';
import { agentRoot, inspect } from './agents';
import { HOST_VERSION } from './version';
import type { MirrorRecord } from './mirror';
import { dropCopy, grantsNeedingConfirmation, type HostContext } from './placement';

function writtenAt(ctx: HostContext, agent: MirrorRecord['agents'][number]): string {
  const st = inspect(agentRoot(ctx.places, agent.agent), agent.folder);
  return st.kind === 'skillpin' && typeof st.provenance.writtenAt === 'string' ? ` (written ${st.provenance.writtenAt.slice(0, 10)})` : '';
}

function explain(o: AgentOutcome | null, reason: string, since: string): AgentOutcome | null {
  // Null, or the copy was already gone or no longer Skillpin's (dropCopy says so and deleted nothing).
  if (o === null || (o.state === 'removed' && o.message !== null)) return o;
  const folder = o.folder ?? '';
  const kept = o.state === 'copy-modified' && o.message !== null ? ` ${o.message}` : '';
  return {
    ...o,
    message: `Skillpin ${HOST_VERSION} removed the copy "${folder}"${since}: ${reason}. It sat in the agent's skills folder, so the agent or a tool there may already have run it; check what it could have done.${kept}`,
  };
}

/** Judges every record of the partition again; answers what was removed. Records it removes from the mirror are gone on return. */
export function rejudge(ctx: HostContext, entries: readonly SyncEntry[]): AgentOutcome[] {
  const wanted = new Map(entries.map((e) => [skillKey(e), e]));
  const out: AgentOutcome[] = [];
  const drop = (record: MirrorRecord, agent: MirrorRecord['agents'][number], reason: string): void => {
    const since = writtenAt(ctx, agent);
    const o = explain(dropCopy(ctx, record, agent.agent), reason, since);
    if (o !== null) out.push(o);
  };
  for (const record of ctx.mirror.records(ctx.partition)) {
    const metadata = record.files.find((f) => metadataIn(f.path) !== null);
    if (metadata !== undefined) {
      const reason = `it held version-control metadata (${metadata.path}), which can run commands (git, run in that folder by an agent, an editor or a shell prompt, runs what a .git/config names), and Skillpin no longer places such files in agent folders`;
      for (const a of [...record.agents]) drop(record, a, reason);
      ctx.mirror.remove(record);
      continue;
    }
    const files = ctx.mirror.verifiedFiles(record);
    const what = files === null ? null : grantsNeedingConfirmation(files);
    if (what === null) continue;
    const entry = wanted.get(record.key);
    const before = record.agents.length;
    for (const a of [...record.agents]) {
      const request = entry?.revision === record.revision ? entry.agents.find((r) => r.agent === a.agent) : undefined;
      if (request !== undefined && request.confirmedRevision === record.revision) continue;
      drop(record, a, `it grants tools or carries scripts (${what}) and the current rules need your confirmation for that, which was not given`);
    }
    if (record.agents.length !== before) ctx.mirror.rewrite(record);
  }
  return out;
}
