// `skillpin doctor` (docs/desktop.md, section 5.2): how this computer's installation stands, in
// plain words or as JSON for scripts: the program's version against the one the extension needs,
// the node the launcher runs, what the mirror holds per browser profile, which agent folder holds
// which skill and which agents see it, the browsers' manifests and whether each points at a program
// that is there, and the MCP configuration to paste. It only reads; it changes nothing.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentsReading } from '../lib/desktop/protocol/agents';
import { AGENT_IDS, compareVersions, MIN_HOST_VERSION } from '../lib/desktop/protocol/limits';
import { readJson } from './atomic';
import { agentRoot, agentsFound } from './agents';
import { mcpConfig } from './install';
import { Mirror, type MirrorRecord, partitionOfRecord } from './mirror';
import { installFile, MANIFEST_FILE, manifestName, manifestPlaces, mirrorDir, type Places } from './places';
import { HOST_VERSION } from './version';

const readObject = (path: string): Record<string, unknown> | null => readJson(path) as Record<string, unknown> | null;

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The node the launcher names first (`SKILLPIN_NODE=…` or the `exec` line). */
export function launcherNode(text: string): string | null {
  const m = /^SKILLPIN_NODE='((?:[^']|'\\'')*)'/m.exec(text) ?? /^exec '((?:[^']|'\\'')*)'/m.exec(text) ?? /^"([^"]+)" "/m.exec(text);
  return m?.[1]?.replace(/'\\''/g, "'") ?? null;
}

function installedPart(p: Places) {
  if (!existsSync(installFile(p))) return null;
  const bin = join(p.dataDir, 'bin');
  const program = join(bin, 'skillpin.mjs');
  const launcher = join(bin, p.platform === 'win32' ? 'skillpin-native-host.cmd' : 'skillpin-native-host');
  const launcherPresent = existsSync(launcher);
  const node = launcherPresent ? launcherNode(readFileSync(launcher, 'utf8')) : null;
  const nodeWorks = node !== null && runnable(node);
  let version: string | null = null;
  if (existsSync(program)) {
    const run = spawnSync(nodeWorks && node !== null ? node : process.execPath, [program, '--version'], { encoding: 'utf8', timeout: 20_000 });
    version = /^skillpin (\S+)/.exec(run.stdout ?? '')?.[1] ?? null;
  }
  return { program, present: existsSync(program), version, launcher, launcherPresent, node, nodeWorks };
}

/**
 * Every manifest place of the browser table where a manifest is, or install-host would write one now,
 * and every manifest install.json lists. `browser` is the family ('chrome' for every Chromium-family
 * browser), `name` the browser; `expected`: install-host would write it with the ids it recorded.
 */
function manifestsPart(p: Places) {
  const record = readObject(installFile(p));
  const listed = Array.isArray(record?.files) ? (record.files as string[]).filter((f) => f.endsWith(MANIFEST_FILE) || /manifests[\\/](chrome|firefox)\.json$/.test(f)) : [];
  const chromeIds = record !== null && Array.isArray(record.chromeIds) && record.chromeIds.length > 0;
  // Every place of the table is looked at; a browser that is not here (so neither is a manifest) has nothing to say.
  const table = manifestPlaces(p).filter((m) => m.written);
  const expected = new Set(table.flatMap((m) => (m.family === 'firefox' || chromeIds ? [join(m.dir, MANIFEST_FILE)] : [])));
  return [...new Set([...table.map((m) => join(m.dir, MANIFEST_FILE)), ...listed])].map((path) => {
    const m = readObject(path);
    const points = typeof m?.path === 'string' ? m.path : null;
    const allowed = [...(Array.isArray(m?.allowed_origins) ? m.allowed_origins : []), ...(Array.isArray(m?.allowed_extensions) ? m.allowed_extensions : [])] as string[];
    const { browser: name, family } = manifestName(p, path);
    const browser = family === 'firefox' ? ('firefox' as const) : ('chrome' as const);
    return { browser, name, path, present: m !== null, expected: record !== null && expected.has(path), points, pointsExists: points !== null && existsSync(points), allowed };
  });
}

function mirrorPart(p: Places) {
  const records = (existsSync(mirrorDir(p)) ? new Mirror(mirrorDir(p)).records() : []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const profiles = new Map<string, { partition: string; caller: string; profile: string | null; skills: Pick<MirrorRecord, 'name' | 'origin' | 'url' | 'verification'>[] }>();
  for (const r of records) {
    const partition = partitionOfRecord(r);
    const entry = profiles.get(partition) ?? { partition, caller: r.caller, profile: r.profile ?? null, skills: [] };
    entry.skills.push({ name: r.name, origin: r.origin, url: r.url, verification: r.verification });
    profiles.set(partition, entry);
  }
  const folders = AGENT_IDS.map((folder) => ({
    folder,
    path: agentRoot(p, folder),
    seenBy: agentsReading(folder),
    copies: records.flatMap((r) => r.agents.filter((a) => a.agent === folder).map((a) => ({ name: a.folder, origin: r.origin, url: r.url }))),
  }));
  return { profiles: [...profiles.values()], folders };
}

function problemsOf(r: ReturnType<typeof findings>, installCmd: string): string[] {
  const out: string[] = [];
  if (r.installed === null) out.push(`The program is not installed for any browser. Run: ${installCmd}`);
  else {
    if (!r.installed.present) out.push(`The installed program ${r.installed.program} is missing. Run: ${installCmd}`);
    else if (r.installed.version !== null && r.installed.version !== r.version) out.push(`The installed program is version ${r.installed.version}, this one is ${r.version}. Run: ${installCmd}`);
    if (!r.installed.nodeWorks) {
      out.push(
        `The Node.js install-host recorded (${r.installed.node ?? 'none named'}) cannot be run (upgraded or removed?). The launchers fall back to node on PATH and the usual places (on Windows, MCP clients start it by that path). To record the Node.js running now (${process.execPath}), run: ${installCmd}`,
      );
    }
  }
  if (r.installed?.version && compareVersions(r.installed.version, r.minVersion) < 0) out.push(`The installed program is older than ${r.minVersion}, which the extension needs. Run: ${installCmd}`);
  for (const m of r.manifests) if (m.present && !m.pointsExists) out.push(`${m.path} points at ${m.points ?? 'nothing'}, which is not there. Run: ${installCmd}`);
  for (const m of r.manifests) if (m.expected && !m.present) out.push(`${m.name} has no Skillpin manifest (${m.path}), so it cannot start the program. Run: ${installCmd}`);
  if (r.installed !== null && !r.manifests.some((m) => m.present && m.browser === 'chrome'))
    out.push('No Chrome or Chromium manifest is installed: run install-host again with --chrome-id <the id chrome://extensions shows for Skillpin>.');
  return out;
}

/** What doctor finds on this computer, before it judges it (`minVersion`: the oldest program the extension of this version syncs with). */
function findings(p: Places, env: Record<string, string>) {
  const installed = installedPart(p);
  const node = installed?.nodeWorks && installed.node !== null ? installed.node : process.execPath;
  return { version: HOST_VERSION, minVersion: MIN_HOST_VERSION, installed, ...mirrorPart(p), agentsFound: agentsFound(p.home), manifests: manifestsPart(p), mcp: mcpConfig(p, node, env) };
}

/** How the installation stands, as `skillpin doctor --json` prints it. */
export type DoctorReport = ReturnType<typeof doctor>;

export function doctor(p: Places, env: Record<string, string>, installCmd: string) {
  const base = findings(p, env);
  return { ...base, problems: problemsOf(base, installCmd) };
}
