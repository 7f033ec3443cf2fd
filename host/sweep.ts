// Copies no record names (docs/desktop.md): a host killed between noting a copy and writing it,
// or a host before version 1.1.0 killed between writing a copy and noting it, leaves a folder in
// an agent's skills folder whose provenance names one of the host's partitions but that no
// mirror record lists. Every sync (so every withdrawal and key revocation) and uninstall-host look
// for them and remove them as they remove any copy: files the user changed or added stay.
import { AGENT_IDS, type AgentId } from '../lib/desktop/protocol/limits';
import { type AgentOutcome, isHttpOrigin } from '../lib/desktop/protocol/wire';
import { namesIn } from './atomic';
import { agentRoot, inspect, ownerOf, removeCopy } from './agents';
import type { MirrorRecord } from './mirror';
import type { Places } from './places';

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
