// What the extension sends the host (docs/desktop.md): from the skills that may be used now
// (each approved, current, allowed by policy) and the agent folders the user picked, one sync
// naming every skill by its revision, and for each skill the host lacks one put with its files.
import { encodeBase64 } from '../verify/base64';
import { sha256, toHex } from '../verify/sha256';
import { grantsOf, needsConfirmation } from './protocol/grants';
import { type AgentId, MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from './protocol/limits';
import { checkSkillPaths } from './protocol/paths';
import { type AgentRequest, parseHostRequest, type SkillFacts, type SkillRef, type SyncEntry, type WireSkill } from './protocol/wire';
import { factsOf, skillKey, skillRevision } from './protocol/revision';

/** A skill that may be used now, as the hand-off gate gives it: its approved files and facts. */
export interface MirrorableSkill extends SkillFacts {
  /** SKILL.md at the root, and for an archive every other regular file, exactly as approved. */
  files: { path: string; bytes: Uint8Array }[];
  /** What the extension already knows: the frontmatter grants tools, or the skill carries scripts. */
  grantsTools: boolean;
  hasScripts: boolean;
  /**
   * The user confirmed what this content can do (PRODUCT.md §6.1: one confirmation per skill version,
   * at approval, for every place it goes): every agent folder takes it.
   */
  confirmed?: boolean;
}

/** The user's choices: the agent folders picked, and which content they confirmed for which agent. */
export interface AgentChoices {
  agents: AgentId[];
  /** True when the user confirmed this revision of this skill for this agent. */
  confirmed(skill: SkillRef, agent: AgentId, revision: string): boolean;
  /**
   * True when the user confirmed this revision of this skill as a whole (at approval: one
   * confirmation for every place, the MCP server included). Absent: a confirmation for any agent
   * picked counts.
   */
  skillConfirmed?(skill: SkillRef, revision: string): boolean;
}

/** The skill-level confirmation the plan sends: the choices' own, else any agent's. */
export function skillConfirmedBy(choices: AgentChoices, skill: SkillRef, revision: string): boolean {
  if (choices.skillConfirmed !== undefined) return choices.skillConfirmed(skill, revision);
  return choices.agents.some((agent) => choices.confirmed(skill, agent, revision));
}

/** A skill as planned: its identity and revision, the agent folders picked (each with the revision confirmed for it), and its put message. */
export type PlannedSkill = Awaited<ReturnType<typeof planOne>>;

/** One sync naming every planned skill, the planned skills by key, and the skills that cannot be mirrored as they are, with the reason. */
export type MirrorPlan = Awaited<ReturnType<typeof planMirror>>;

function localProblem(skill: MirrorableSkill): string | null {
  if (skill.files.length === 0 || skill.files.length > MAX_FILES_PER_SKILL) return `it has ${skill.files.length} files (1–${MAX_FILES_PER_SKILL} can be mirrored)`;
  const total = skill.files.reduce((n, f) => n + f.bytes.length, 0);
  if (total > MAX_BYTES_PER_SKILL) return `its files hold ${total} bytes (at most ${MAX_BYTES_PER_SKILL} can be mirrored)`;
  const paths = checkSkillPaths(skill.files.map((f) => f.path));
  return paths.ok ? null : paths.message;
}

async function planOne(skill: MirrorableSkill, choices: AgentChoices) {
  const ref = { origin: skill.origin, url: skill.url };
  const files = await Promise.all(skill.files.map(async (f) => ({ path: f.path, bytes: f.bytes, sha256: toHex(await sha256(f.bytes)), size: f.bytes.length })));
  const facts = factsOf(skill);
  const revision = skillRevision({ ...facts, files });
  const skillMd = files.find((f) => f.path === 'SKILL.md')?.bytes ?? new Uint8Array(0);
  const needs = skill.grantsTools || skill.hasScripts || needsConfirmation(grantsOf(skillMd, skill.files));
  const agents: AgentRequest[] = choices.agents.map((agent) => ({ agent, confirmedRevision: needs && (skill.confirmed === true || choices.confirmed(ref, agent, revision)) ? revision : null }));
  const confirmedRevision = needs && (skill.confirmed === true || skillConfirmedBy(choices, ref, revision)) ? revision : null;
  return {
    ref,
    key: skillKey(ref),
    revision,
    /** The skill grants tools or carries scripts, so each agent folder needs the user's confirmation. */
    needsConfirmation: needs,
    agents,
    /** The revision confirmed for the skill as a whole when it needs confirmation (the MCP server checks it), else null. */
    confirmedRevision,
    /** The put message for this skill (without its id); built on demand, as it carries every file. */
    put: () => ({
      type: 'put' as const,
      skill: { ...facts, revision, files: files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size, data: encodeBase64(f.bytes) })) } satisfies WireSkill,
      agents,
      confirmedRevision,
    }),
  };
}

/** Plans the messages for the skills that may be used now. A skill named twice is planned once. */
export async function planMirror(skills: readonly MirrorableSkill[], choices: AgentChoices) {
  const planned = new Map<string, PlannedSkill>();
  const refused: { ref: SkillRef; message: string }[] = [];
  for (const skill of skills) {
    const ref = { origin: skill.origin, url: skill.url };
    const problem = localProblem(skill);
    if (problem !== null) {
      refused.push({ ref, message: `This skill cannot be mirrored: ${problem}.` });
      continue;
    }
    const one = await planOne(skill, choices);
    if (!planned.has(one.key)) planned.set(one.key, one);
  }
  const entries: SyncEntry[] = [...planned.values()].map((p) => ({ ...p.ref, revision: p.revision, agents: p.agents, confirmedRevision: p.confirmedRevision }));
  return { sync: { type: 'sync' as const, skills: entries }, skills: planned, refused };
}

/** The put for a skill with its id, checked by the same function the host uses. */
export function putMessage(skill: PlannedSkill, id: number): { ok: true; message: Record<string, unknown> } | { ok: false; message: string } {
  const message = { ...skill.put(), id };
  const parsed = parseHostRequest(message);
  return parsed.ok ? { ok: true, message } : { ok: false, message: parsed.message };
}
