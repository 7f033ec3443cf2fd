// What Skillpin's desktop program holds (docs/desktop.md): each skill handed over, what became of
// its copy in each agent folder, and, for a skill that grants tools or carries scripts, the
// per-agent "Allow" that asks first and says plainly what the agent may then do.
import { useState } from 'preact/hooks';
import type { AgentId } from '../../lib/desktop/limits';
import type { AgentState } from '../../lib/desktop/protocol';
import { t, type MessageKey } from '../../lib/i18n';
import type { DesktopAgentStatus, DesktopSkillStatus, DesktopStatus } from '../../lib/messages';
import { NAME_MAX, display } from '../../lib/text/display';
import { Dialog } from '../shared/Dialog';
import { agentName, type DesktopModel } from './use-desktop';

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

interface Asking {
  skill: DesktopSkillStatus;
  agent: AgentId;
}

function SkillRow({ skill, model, ask }: { skill: DesktopSkillStatus; model: DesktopModel; ask: (a: Asking) => void }) {
  const name = display(skill.name, NAME_MAX);
  return (
    <li class="desktop-skill" data-skill-url={skill.url}>
      <strong>{name}</strong> <span class="hint">{t('desktop_skill_from', skill.origin)}</span>
      {skill.tools.length > 0 && <p class="hint">{t('desktop_skill_tools', skill.tools.join(', '))}</p>}
      {skill.scripts.length > 0 && <p class="hint">{t('desktop_skill_scripts', skill.scripts.slice(0, 10).join(', '))}</p>}
      {skill.needsConfirmation && skill.agents.length > 0 && <p class="hint">{t('desktop_skill_needs')}</p>}
      <ul>
        {skill.agents.map((a) => (
          <li key={a.agent} data-agent={a.agent} data-state={a.state ?? 'pending'}>
            {agentLine(a)}
            {a.message && a.state !== 'needs-confirmation' && <span class="hint"> {t('desktop_detail', a.message)}</span>}
            {skill.needsConfirmation && (
              <button
                type="button"
                class="btn-quiet"
                data-action={a.confirmed ? 'desktop-disallow' : 'desktop-allow'}
                disabled={model.busy}
                onClick={() => (a.confirmed ? void model.allow(skill, a.agent, false) : ask({ skill, agent: a.agent }))}
              >
                {a.confirmed ? t('desktop_disallow', agentName(a.agent)) : t('desktop_allow', agentName(a.agent))}
              </button>
            )}
          </li>
        ))}
      </ul>
    </li>
  );
}

export function DesktopSkills({ model, status }: { model: DesktopModel; status: DesktopStatus }) {
  const [asking, setAsking] = useState<Asking | null>(null);
  return (
    <div class="desktop-skills">
      <h3>{t('desktop_skills_title')}</h3>
      {status.skills.length === 0 ? (
        <p class="hint">{t('desktop_skills_none')}</p>
      ) : (
        <ul data-testid="desktop-skills">
          {status.skills.map((s) => (
            <SkillRow key={`${s.origin} ${s.url}`} skill={s} model={model} ask={setAsking} />
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
      {asking && (
        <Dialog
          title={t('desktop_allow_title', display(asking.skill.name, NAME_MAX), agentName(asking.agent))}
          confirmLabel={t('desktop_allow_confirm')}
          cancelLabel={t('cancel')}
          danger
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            const a = asking;
            setAsking(null);
            void model.allow(a.skill, a.agent, true);
          }}
        >
          <p>{t('desktop_allow_body', agentName(asking.agent))}</p>
          <p>{t('desktop_trust_warning')}</p>
        </Dialog>
      )}
    </div>
  );
}
