// What Skillpin's desktop program holds (docs/desktop.md): each skill handed over and what became of
// its copy in each agent folder, and the skills that may be used but are not handed over, with the
// reason (a skill whose findings that act or can act are not confirmed: its one approval
// confirmation, in the popup or the side panel, covers every agent folder).
import type { AgentState } from '../../lib/desktop/protocol/wire';
import { t, type MessageKey } from '../../lib/i18n';
import type { DesktopAgentStatus, DesktopSkillStatus, DesktopStatus } from '../../lib/messages';
import { NAME_MAX, display } from '../../lib/render/display';
import { desktopAgentName } from '../shared/agent-names';
import { agentName } from './use-desktop';
import { agentsSeeing, foldersHolding } from '../../lib/desktop/protocol/agents';

const AGENT_STATE: Record<AgentState, MessageKey> = {
  written: 'desktop_agent_written',
  unchanged: 'desktop_agent_written',
  removed: 'desktop_agent_removed',
  'needs-confirmation': 'desktop_agent_needs_confirmation',
  'name-taken': 'desktop_agent_name_taken',
  'copy-modified': 'desktop_agent_copy_modified',
  failed: 'desktop_agent_failed',
};

function agentLine(a: DesktopAgentStatus): string {
  if (a.state === null) return t('desktop_agent_pending', agentName(a.agent));
  return t(AGENT_STATE[a.state], agentName(a.agent), a.folder ?? '');
}

function SkillRow({ skill }: { skill: DesktopSkillStatus }) {
  // The agents that read a folder holding this skill's copy.
  const seenBy = agentsSeeing(foldersHolding(skill.agents));
  return (
    <li class="desktop-skill" data-skill-url={skill.url}>
      <strong>{display(skill.name, NAME_MAX)}</strong> <span class="hint">{t('desktop_skill_from', skill.origin)}</span>
      {skill.tools.length > 0 && <p class="hint">{t('desktop_skill_tools', skill.tools.join(', '))}</p>}
      {skill.scripts.length > 0 && <p class="hint">{t('desktop_skill_scripts', skill.scripts.slice(0, 10).join(', '))}</p>}
      {seenBy.length > 0 && (
        <p class="hint" data-testid="desktop-seen-by">
          {t('desktop_skill_seen_by', seenBy.map(desktopAgentName).join(', '))}
        </p>
      )}
      <ul>
        {skill.agents.map((a) => (
          <li key={a.agent} data-agent={a.agent} data-state={a.state ?? 'pending'}>
            {agentLine(a)}
            {a.message && a.state !== 'needs-confirmation' && <span class="hint"> {t('desktop_detail', a.message)}</span>}
          </li>
        ))}
      </ul>
    </li>
  );
}

export function DesktopSkills({ status }: { status: DesktopStatus }) {
  return (
    <div class="desktop-skills">
      <h3>{t('desktop_skills_title')}</h3>
      {status.skills.length === 0 ? (
        <p class="hint" data-testid="desktop-skills-empty">
          {status.state === 'in-sync' || status.state === 'waiting' ? t('desktop_skills_none') : t('desktop_skills_unknown')}
        </p>
      ) : (
        <ul data-testid="desktop-skills">
          {status.skills.map((s) => (
            <SkillRow key={`${s.origin} ${s.url}`} skill={s} />
          ))}
        </ul>
      )}
      {status.refused.length > 0 && (
        <>
          <h3>{t('desktop_refused_title')}</h3>
          <ul data-testid="desktop-refused">
            {status.refused.map((r) => (
              <li key={`${r.origin} ${r.url}`}>{t('desktop_refused_item', r.url, r.message)}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
