// What the options page is told of the desktop mirror: the user's agent choices as the plan reads
// them, and each planned skill with what asks for confirmation and what the program did with each
// agent-folder copy (desktop-sync.ts keeps them; lib/messages/ DesktopStatus).
import { grantsOf } from '../desktop/protocol/grants';
import { planFolders } from '../desktop/protocol/agents';
import { MIN_HOST_VERSION } from '../desktop/protocol/limits';
import type { AgentChoices, MirrorableSkill, MirrorPlan } from '../desktop/outbox';
import type { AgentOutcome } from '../desktop/protocol/wire';
import type { DesktopSkillStatus } from '../messages';
import type { Settings } from '../types';

/**
 * The folders that reach the agents picked (planFolders), and the confirmations given for exactly one revision each. The
 * skill-level confirmation (what the MCP server checks) is, for now, a confirmation of this
 * revision for any agent; the approval's own confirmation replaces it.
 */
export function choicesOf(settings: Settings): AgentChoices {
  const same = (c: Settings['desktopConfirmed'][number], ref: { origin: string; url: string }, revision: string): boolean => c.origin === ref.origin && c.url === ref.url && c.revision === revision;
  return {
    agents: planFolders(settings.desktopAgents).folders,
    confirmed: (ref, agent, revision) => settings.desktopConfirmed.some((c) => same(c, ref, revision) && c.agent === agent),
    skillConfirmed: (ref, revision) => settings.desktopConfirmed.some((c) => same(c, ref, revision)),
  };
}

/**
 * How to update a program older than MIN_HOST_VERSION: install-host again from an up-to-date
 * Skillpin, which copies the new program over the old one (docs/desktop.md, section 5).
 */
export function updateOf(installCommand: string): { command: string; minVersion: string } {
  return { command: installCommand, minVersion: MIN_HOST_VERSION };
}

export const outcomeKey = (o: { origin: string; url: string; agent: string }): string => `${o.agent} ${o.origin} ${o.url}`;

/** Each planned skill as the options page lists it, before the program answered. */
export function describePlan(plan: MirrorPlan, skills: readonly MirrorableSkill[], settings: Settings): DesktopSkillStatus[] {
  const choices = choicesOf(settings);
  const byId = new Map(skills.map((s) => [`${s.origin} ${s.url}`, s]));
  return [...plan.skills.values()].map((p) => {
    const skill = byId.get(`${p.ref.origin} ${p.ref.url}`);
    const grants = skill ? grantsOf(skill.files.find((f) => f.path === 'SKILL.md')?.bytes ?? new Uint8Array(0), skill.files) : { tools: [], scripts: [] };
    return {
      ...p.ref,
      name: skill?.name ?? p.ref.url,
      revision: p.revision,
      tools: grants.tools,
      scripts: grants.scripts,
      needsConfirmation: p.needsConfirmation,
      agents: p.agents.map((a) => ({ agent: a.agent, confirmed: skill?.confirmed === true || choices.confirmed(p.ref, a.agent, p.revision), state: null, folder: null, message: null })),
    };
  });
}

/** The skills with what the program last said of each agent copy. */
export function withOutcomes(skills: readonly DesktopSkillStatus[], outcomes: ReadonlyMap<string, AgentOutcome>): DesktopSkillStatus[] {
  return skills.map((s) => ({
    ...s,
    agents: s.agents.map((a) => {
      const o = outcomes.get(outcomeKey({ origin: s.origin, url: s.url, agent: a.agent }));
      return o === undefined ? a : { ...a, state: o.state, folder: o.folder, message: o.message };
    }),
  }));
}
