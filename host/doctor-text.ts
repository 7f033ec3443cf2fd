// `skillpin doctor` in plain words (the report is host/doctor.ts).
import type { DoctorReport } from './doctor';
import { mcpLines } from './install-text';

const agentNames: Record<string, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  copilot: 'GitHub Copilot',
  opencode: 'OpenCode',
  cursor: 'Cursor',
};
const names = (ids: readonly string[]): string => (ids.length === 0 ? 'none' : ids.map((a) => agentNames[a] ?? a).join(', '));

function installedLines(r: DoctorReport): string[] {
  const i = r.installed;
  if (i === null) return ['Installed: no (no install.json in the data folder).'];
  return [
    `Installed program: ${i.program} (${i.present ? `version ${i.version ?? 'unknown'}` : 'missing'})`,
    `Launcher the browsers start: ${i.launcher} (${i.launcherPresent ? 'there' : 'missing'})`,
    `Node.js it runs first: ${i.node ?? 'none named'} (${i.nodeWorks ? 'works' : 'cannot be run'})`,
  ];
}

export function doctorText(r: DoctorReport, platform: NodeJS.Platform = process.platform): string {
  const lines = [`skillpin ${r.version}; the extension needs ${r.minVersion} or later.`, ...installedLines(r), ''];
  lines.push(r.profiles.length === 0 ? 'Mirror: empty (no browser has handed over a skill yet).' : 'Mirror, per browser profile:');
  for (const p of r.profiles) {
    lines.push(`  ${p.caller}${p.profile ? ` profile ${p.profile}` : ''}: ${p.skills.length} skill(s)`);
    for (const s of p.skills) lines.push(`    ${s.name} from ${s.origin} (${s.verification})`);
  }
  lines.push('', `Agents found on this computer: ${names(r.agentsFound)}.`, 'Agent folders:');
  for (const f of r.folders) {
    lines.push(`  ${f.path} (seen by ${names(f.seenBy)}): ${f.copies.length === 0 ? 'no copy' : f.copies.map((c) => `${c.name} from ${c.origin}`).join(', ')}`);
  }
  lines.push('', 'Browser manifests:');
  for (const m of r.manifests) {
    if (!m.present) lines.push(`  ${m.name}: ${m.path}: not installed`);
    else lines.push(`  ${m.name}: ${m.path}: allows ${m.allowed.join(', ') || 'nobody'}; starts ${m.points ?? 'nothing'} (${m.pointsExists ? 'there' : 'MISSING'})`);
  }
  lines.push('', ...mcpLines(r.mcp, platform), '');
  lines.push(r.problems.length === 0 ? 'No problem found.' : 'Problems:', ...r.problems.map((p) => `  - ${p}`));
  return `${lines.join('\n')}\n`;
}
