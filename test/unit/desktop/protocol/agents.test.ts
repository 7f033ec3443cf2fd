// The agent table and the fewest folders that reach the agents picked (lib/desktop/protocol/agents.ts),
// over every subset of the six agents, judged against a brute force written from the rules.
import { describe, expect, it } from 'vitest';
import { AGENT_READS, agentsReading, DESKTOP_AGENTS, type DesktopAgentId, migrateAgentList, planFolders, WRITABLE } from '../../../../lib/desktop/protocol/agents';
import { AGENT_FOLDERS, AGENT_IDS } from '../../../../lib/desktop/protocol/limits';
import type { FolderId } from '../../../../lib/types';
import { readSettings } from '../../../../lib/store/settings';

const subsets = <T>(items: readonly T[]): T[][] => Array.from({ length: 1 << items.length }, (_, m) => items.filter((_, i) => (m & (1 << i)) !== 0));

/** How many copies each agent sees when these folders are written. */
function seen(folders: readonly FolderId[]): Map<DesktopAgentId, number> {
  return new Map(DESKTOP_AGENTS.map((a) => [a, folders.filter((f) => AGENT_READS[a].includes(WRITABLE[f])).length]));
}

describe('the agent table', () => {
  it('says which folder each agent reads, as docs/desktop.md lists them', () => {
    expect(AGENT_READS['claude-code']).toEqual(['claude']);
    expect(AGENT_READS.codex).toEqual(['agents']);
    expect([...AGENT_READS['gemini-cli']].sort()).toEqual(['agents', 'gemini']);
    expect([...AGENT_READS.copilot].sort()).toEqual(['agents', 'claude', 'copilot']);
    expect([...AGENT_READS.opencode].sort()).toEqual(['agents', 'claude', 'opencode']);
    expect([...AGENT_READS.cursor].sort()).toEqual(['agents', 'claude', 'codex', 'cursor']);
  });

  it('names for every folder the program writes the same path as the protocol', () => {
    for (const id of AGENT_IDS) expect(AGENT_FOLDERS[id]).toBe({ claude: '.claude/skills', agents: '.agents/skills', gemini: '.gemini/skills' }[WRITABLE[id] as 'claude']);
    expect(agentsReading('claude-code')).toEqual(['claude-code', 'copilot', 'opencode', 'cursor']);
    expect(agentsReading('agents')).toEqual(['codex', 'gemini-cli', 'copilot', 'opencode', 'cursor']);
    expect(agentsReading('gemini-cli')).toEqual(['gemini-cli']);
  });
});

describe('planFolders over all 64 subsets of the six agents', () => {
  const all = subsets(DESKTOP_AGENTS);
  const choices = subsets(AGENT_IDS);

  it.each(all.map((s) => [s.join('+') || '(none)', s] as const))('%s', (_, picked) => {
    const plan = planFolders(picked);
    const copies = seen(plan.folders);
    // Every picked agent is reached.
    for (const a of picked) expect(copies.get(a)).toBeGreaterThan(0);
    // The least duplication any choice allows for the picked agents.
    const doubles = (fs: FolderId[]) => picked.filter((a) => (seen(fs).get(a) ?? 0) > 1).length;
    const reaching = choices.filter((fs) => picked.every((a) => (seen(fs).get(a) ?? 0) > 0));
    const leastDoubles = Math.min(...reaching.map(doubles));
    expect(doubles(plan.folders)).toBe(leastDoubles);
    // Then the fewest folders.
    const fewest = Math.min(...reaching.filter((fs) => doubles(fs) === leastDoubles).map((fs) => fs.length));
    expect(plan.folders.length).toBe(fewest);
    // What it reports is what the table gives.
    for (const a of DESKTOP_AGENTS) expect(plan.copies[a]).toBe(copies.get(a));
    expect(plan.twice).toEqual(picked.filter((a) => (copies.get(a) ?? 0) > 1).sort((x, y) => DESKTOP_AGENTS.indexOf(x) - DESKTOP_AGENTS.indexOf(y)));
    if (picked.length === 0) expect(plan.folders).toEqual([]);
  });

  it('no agent picked sees a skill twice unless Claude Code and Codex are both picked with an agent that reads both their folders', () => {
    for (const picked of all) {
      const forced = picked.includes('claude-code') && picked.includes('codex');
      const twice = planFolders(picked).twice;
      if (!forced) expect(twice).toEqual([]);
      else expect(twice).toEqual(picked.filter((a) => a === 'copilot' || a === 'opencode' || a === 'cursor'));
    }
  });

  it('prefers folders agents the user did not pick do not read', () => {
    expect(planFolders(['gemini-cli']).folders).toEqual(['gemini-cli']);
    expect(planFolders(['copilot']).folders).toEqual(['claude-code']);
    expect(planFolders(['codex', 'gemini-cli']).folders).toEqual(['agents']);
    expect(planFolders(['claude-code', 'gemini-cli']).folders).toEqual(['claude-code', 'gemini-cli']);
    expect(planFolders(['claude-code', 'copilot', 'opencode', 'cursor']).folders).toEqual(['claude-code']);
  });

  it('writes only the folders the program can write', () => {
    expect(planFolders(['gemini-cli'], ['claude-code', 'agents']).folders).toEqual(['agents']);
    expect(planFolders(['claude-code'], ['agents']).folders).toEqual([]);
  });
});

describe('settings from before agents were picked by name', () => {
  it('read the shared folder as Codex and keep Claude Code and Gemini CLI', () => {
    expect(migrateAgentList(['claude-code', 'agents', 'gemini-cli'])).toEqual(['claude-code', 'codex', 'gemini-cli']);
    const { settings, invalid } = readSettings({ desktopAgents: ['agents', 'gemini-cli'] });
    expect(invalid).toEqual([]);
    expect(settings.desktopAgents).toEqual(['codex', 'gemini-cli']);
    // The folders written stay the ones the user had ticked, less the copy Gemini CLI saw twice.
    expect(planFolders(readSettings({ desktopAgents: ['claude-code', 'agents'] }).settings.desktopAgents).folders).toEqual(['claude-code', 'agents']);
    expect(planFolders(readSettings({ desktopAgents: ['gemini-cli'] }).settings.desktopAgents).folders).toEqual(['gemini-cli']);
  });

  it('every old choice still reaches every folder’s agents it named', () => {
    for (const old of subsets(AGENT_IDS)) {
      const now = readSettings({ desktopAgents: old }).settings.desktopAgents;
      expect(now.length).toBe(old.length);
      const folders = planFolders(now).folders;
      for (const f of old) if (f !== 'gemini-cli' || !old.includes('agents')) expect(folders).toContain(f);
    }
  });
});
