// Skill attestations (FORMATS.md §8): advisory only, and only when the user configured a
// reviewer registry. Fetched only for an origin that published a discovery document and
// lists at least one skill that can be attested (one with a declared tool_sha256).
import { diag } from '../report/codes';
import type { AttestationReport, Diagnostic, Settings, SourceReport } from '../types';
import type { MergedSkill } from '../parse/merge';
import { evaluateAttestations, parseAttestations } from '../verify/attestations';
import { fetchDocument, type ProbeIO } from './discover';

export interface AttestationResults {
  /** Per merged skill key; absent when no verdict applies. */
  verdicts: Map<string, AttestationReport>;
  sources: SourceReport[];
  diagnostics: Diagnostic[];
}

function listed(m: MergedSkill): { name: string; tool: string } | null {
  for (const c of m.candidates) {
    if (c.name !== null && c.toolSha256 !== null) return { name: c.name, tool: c.toolSha256 };
  }
  return null;
}

export async function attestSkills(origin: string, skills: MergedSkill[], publishes: boolean, settings: Settings, today: Date, ctx: ProbeIO): Promise<AttestationResults> {
  const out: AttestationResults = { verdicts: new Map(), sources: [], diagnostics: [] };
  const registry = settings.reviewers;
  if (!publishes || Object.keys(registry).length === 0) return out;
  const attestable = skills.map((m) => ({ m, l: listed(m) })).filter((x) => x.l !== null);
  if (attestable.length === 0) return out;

  const doc = await fetchDocument('attestations', origin, ctx);
  out.sources.push(doc.source);
  out.diagnostics.push(...doc.diagnostics);
  let entries: Parameters<typeof evaluateAttestations>[0]['entries'] = [];
  if (doc.state === 'present' && doc.bytes) {
    const parsed = parseAttestations(doc.bytes);
    if (parsed.ok) entries = parsed.entries;
    else out.diagnostics.push(diag('attestations-unavailable', `attestations.json: ${parsed.message}`, { url: doc.url }));
  }
  for (const { m, l } of attestable) {
    if (!l) continue;
    out.verdicts.set(m.key, await evaluateAttestations({ entries, origin, skillName: l.name, toolSha256: l.tool, registry, today }));
  }
  return out;
}
