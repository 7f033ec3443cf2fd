// What the options page is told of the desktop mirror: the user's agent choices as the plan reads
// them, and each planned skill with what asks for confirmation and what the program did with each
// agent-folder copy (desktop-sync.ts keeps them; lib/messages/ DesktopStatus).
import { grantsOf } from '../desktop/grants';
import type { AgentChoices, MirrorableSkill, MirrorPlan } from '../desktop/outbox';
import type { AgentOutcome } from '../desktop/protocol';
import type { DesktopSkillStatus } from '../messages';
import type { Settings } from '../types';

/** The agent folders picked, and the confirmations given for exactly one revision each. */
export function choicesOf(settings: Settings): AgentChoices {
  return {
    agents: settings.desktopAgents,
    confirmed: (ref, agent, revision) => settings.desktopConfirmed.some((c) => c.origin === ref.origin && c.url === ref.url && c.agent === agent && c.revision === revision),
  };
}

export const outcomeKey = (o: { origin: string; url: string; agent: string }): string => `${o.agent} ${o.origin} ${o.url}`;

/** Each planned skill as the options page lists it, before the program answered. */
export function describePlan(plan: MirrorPlan, skills: readonly MirrorableSkill[], settings: Settings): DesktopSkillStatus[] {
  const choices = choicesOf(settings);
  const byId = new Map(skills.map((s) => [`${s.origin} ${s.url}`, s]));
  return [...plan.skills.values()].map((p) => {
    const skill = byId.get(`${p.ref.origin} ${p.ref.url}`);
    const grants = skill
      ? grantsOf(
          skill.files.find((f) => f.path === 'SKILL.md')?.bytes ?? new Uint8Array(0),
          skill.files.map((f) => f.path),
        )
      : { tools: [], scripts: [] };
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
