// A desktop agent's name as every page shows it (the options page's agents, the withdrawal message).
import type { DesktopAgentId } from '../../lib/desktop/protocol/agents';
import { type MessageKey, t } from '../../lib/i18n';

const DESKTOP_AGENT_NAMES = {
  'claude-code': 'desktop_agent_claude_code',
  codex: 'desktop_agent_codex',
  'gemini-cli': 'desktop_agent_gemini_cli',
  copilot: 'desktop_agent_copilot',
  opencode: 'desktop_agent_opencode',
  cursor: 'desktop_agent_cursor',
} as const satisfies Record<DesktopAgentId, MessageKey>;

/** A desktop agent's name as the page shows it. */
export function desktopAgentName(agent: DesktopAgentId): string {
  return t(DESKTOP_AGENT_NAMES[agent]);
}
