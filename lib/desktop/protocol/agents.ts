// Which desktop agent reads which user-level skill folder (docs/desktop.md, section 3, with the
// agents' own documentation as sources), and the fewest folders that reach the agents the user
// picked without any of them seeing the same skill twice.
import type { DesktopAgentId, FolderId } from '../../types';

export type { DesktopAgentId };

/** The agents the options page lists, in its order. */
export const DESKTOP_AGENTS = ['claude-code', 'codex', 'gemini-cli', 'copilot', 'opencode', 'cursor'] as const satisfies readonly DesktopAgentId[];

/** Every user-level skill folder an agent below reads, under the user's home. */
export const SKILL_FOLDERS = {
  claude: '.claude/skills',
  agents: '.agents/skills',
  gemini: '.gemini/skills',
  copilot: '.copilot/skills',
  opencode: '.config/opencode/skills',
  cursor: '.cursor/skills',
  codex: '.codex/skills',
} as const;

export type SkillFolder = keyof typeof SKILL_FOLDERS;

/** The folders each agent reads (all of them: a skill in two of them is seen twice). */
export const AGENT_READS: Readonly<Record<DesktopAgentId, readonly SkillFolder[]>> = {
  'claude-code': ['claude'],
  codex: ['agents'],
  'gemini-cli': ['gemini', 'agents'],
  copilot: ['copilot', 'claude', 'agents'],
  opencode: ['opencode', 'claude', 'agents'],
  cursor: ['cursor', 'agents', 'claude', 'codex'],
};

/** The agent's own folder under the home: it is there when the agent has been run on this computer. */
export const AGENT_HOME: Readonly<Record<DesktopAgentId, string>> = {
  'claude-code': '.claude',
  codex: '.codex',
  'gemini-cli': '.gemini',
  copilot: '.copilot',
  opencode: '.config/opencode',
  cursor: '.cursor',
};

/** The folders the desktop program writes, by the protocol's folder id (lib/desktop/protocol/limits.ts AGENT_FOLDERS). */
export const WRITABLE: Readonly<Record<FolderId, SkillFolder>> = { 'claude-code': 'claude', agents: 'agents', 'gemini-cli': 'gemini' };

export function isDesktopAgentId(value: unknown): value is DesktopAgentId {
  return typeof value === 'string' && (DESKTOP_AGENTS as readonly string[]).includes(value);
}

/**
 * Settings written before agents were picked by name held folder ids (`claude-code`, `agents`,
 * `gemini-cli`): the shared `agents` folder was the one offered for Codex. Anything else is kept
 * as it is (the settings check then judges it).
 */
export function migrateAgentList(value: unknown): unknown {
  if (!Array.isArray(value) || !value.includes('agents')) return value;
  const mapped = value.map((v) => (v === 'agents' ? 'codex' : v));
  return [...new Set(mapped)];
}

export interface FolderPlan {
  /** The folders to write, by folder id, in table order. */
  folders: FolderId[];
  /** For every agent (picked or not): how many copies of each skill it sees. */
  copies: Record<DesktopAgentId, number>;
  /** Picked agents that see each skill twice or more because no choice of folders avoids it. */
  twice: DesktopAgentId[];
}

const FOLDER_IDS = Object.keys(WRITABLE) as FolderId[];

function copiesOf(folders: readonly FolderId[]): Record<DesktopAgentId, number> {
  const written = new Set(folders.map((f) => WRITABLE[f]));
  return Object.fromEntries(DESKTOP_AGENTS.map((agent) => [agent, AGENT_READS[agent].filter((f) => written.has(f)).length])) as Record<DesktopAgentId, number>;
}

/** Lower is better, compared in order. */
function cost(folders: readonly FolderId[], picked: ReadonlySet<DesktopAgentId>): number[] {
  const copies = copiesOf(folders);
  const chosen = DESKTOP_AGENTS.filter((a) => picked.has(a));
  const others = DESKTOP_AGENTS.filter((a) => !picked.has(a));
  return [
    chosen.filter((a) => copies[a] === 0).length, // every picked agent is reached
    chosen.filter((a) => copies[a] > 1).length, // none of them sees a skill twice
    folders.length, // the fewest folders
    others.filter((a) => copies[a] > 0).length, // as few agents the user did not pick as can be
    others.filter((a) => copies[a] > 1).length,
  ];
}

const better = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/**
 * The folders to write for the agents picked: every picked agent reached, none seeing a skill
 * twice when any choice allows it, the fewest folders, then the fewest agents not picked reached.
 * Ties go to the earlier folders of the table. `available`: the folders the program can write.
 */
export function planFolders(picked: readonly DesktopAgentId[], available: readonly FolderId[] = FOLDER_IDS): FolderPlan {
  const set = new Set(picked.filter(isDesktopAgentId));
  const usable = FOLDER_IDS.filter((f) => available.includes(f));
  let best: FolderId[] = [];
  let bestCost = cost(best, set);
  for (let mask = 1; mask < 1 << usable.length; mask++) {
    const folders = usable.filter((_, i) => (mask & (1 << i)) !== 0);
    const c = cost(folders, set);
    if (better(c, bestCost)) {
      best = folders;
      bestCost = c;
    }
  }
  const copies = copiesOf(best);
  return { folders: best, copies, twice: DESKTOP_AGENTS.filter((a) => set.has(a) && copies[a] > 1) };
}

/** The agents that read a folder the program wrote (folder id): who sees a skill copied there. */
export function agentsReading(folder: FolderId): DesktopAgentId[] {
  return DESKTOP_AGENTS.filter((a) => AGENT_READS[a].includes(WRITABLE[folder]));
}

/** The agents that see a skill whose copies are in these folders (each agent once, in the table's order). */
export function agentsSeeing(folders: readonly FolderId[]): DesktopAgentId[] {
  return DESKTOP_AGENTS.filter((agent) => folders.some((folder) => agentsReading(folder).includes(agent)));
}

/** The folders a skill's copy is in, from what the program said of each (written now, or there unchanged). */
export function foldersHolding(agents: readonly { agent: FolderId; state: string | null }[]): FolderId[] {
  return agents.filter((a) => a.state === 'written' || a.state === 'unchanged').map((a) => a.agent);
}
