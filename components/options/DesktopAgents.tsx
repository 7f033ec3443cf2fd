// The agents the user picks for the desktop program (docs/desktop.md, section 3): each with the
// folders it reads and whether the program found it on this computer, then the folders the
// program writes for the agents ticked (lib/desktop/protocol/agents.ts planFolders) and who sees them.
import { AGENT_READS, DESKTOP_AGENTS, type DesktopAgentId, planFolders, SKILL_FOLDERS } from '../../lib/desktop/protocol/agents';
import { t } from '../../lib/i18n';
import type { DesktopStatus } from '../../lib/messages';
import { desktopAgentName } from '../shared/agent-names';
import { agentName, type DesktopModel } from './use-desktop';

const names = (agents: readonly DesktopAgentId[]): string => agents.map(desktopAgentName).join(', ');

function FolderPlan({ picked }: { picked: DesktopAgentId[] }) {
  const plan = planFolders(picked);
  if (plan.folders.length === 0)
    return (
      <p class="hint" data-testid="desktop-folders">
        {t('desktop_folders_none')}
      </p>
    );
  const also = DESKTOP_AGENTS.filter((a) => !picked.includes(a) && plan.copies[a] > 0);
  return (
    <div data-testid="desktop-folders" data-folders={plan.folders.join(' ')}>
      <p class="hint">{t('desktop_folders_plan', plan.folders.map(agentName).join(', '))}</p>
      {plan.twice.length > 0 && (
        <p class="result result-warn" data-testid="desktop-twice">
          {t('desktop_agents_twice', names(plan.twice))}
        </p>
      )}
      {also.length > 0 && <p class="hint">{t('desktop_agents_also', names(also))}</p>}
    </div>
  );
}

export function DesktopAgents({ model, status }: { model: DesktopModel; status: DesktopStatus }) {
  const picked = model.settings?.desktopAgents ?? [];
  const found = status.found ?? null;
  return (
    <fieldset class="desktop-agents">
      <legend>{t('desktop_agents_title')}</legend>
      <p class="hint">{t('desktop_agents_help')}</p>
      <p class="result result-warn" data-testid="desktop-trust">
        {t('desktop_trust_warning')}
      </p>
      {DESKTOP_AGENTS.map((agent) => (
        <div class="field check" key={agent}>
          <input
            type="checkbox"
            id={`desktop-agent-${agent}`}
            data-agent={agent}
            checked={picked.includes(agent)}
            onChange={(e) => void model.setAgent(agent, (e.currentTarget as HTMLInputElement).checked)}
          />
          <label for={`desktop-agent-${agent}`}>{desktopAgentName(agent)}</label>
          {found !== null && (
            <span class="hint" data-found={found.includes(agent) ? 'yes' : 'no'}>
              {' '}
              ({found.includes(agent) ? t('desktop_agent_found') : t('desktop_agent_not_found')})
            </span>
          )}
          <p class="hint">{t('desktop_agent_reads', AGENT_READS[agent].map((f) => `~/${SKILL_FOLDERS[f]}/`).join(', '))}</p>
        </div>
      ))}
      <FolderPlan picked={picked} />
    </fieldset>
  );
}
