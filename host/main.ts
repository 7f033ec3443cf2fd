// The `skillpin` command (bin/skillpin): native-host, mcp, install-host, uninstall-host.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { doctor } from './doctor';
import { doctorText } from './doctor-text';
import { install, mcpConfig, readInstallRecord, uninstall } from './install';
import { installText } from './install-text';
import { runMcpServer } from './mcp';
import { runNativeHost } from './native-host';
import { type PlaceOverrides, type Places, places } from './places';
import { HOST_VERSION } from './version';

const USAGE = `Usage:
  skillpin install-host [--chrome-id <id>]... [--chrome-profile <dir>]... [--home <dir>] [--data-dir <dir>]
  skillpin uninstall-host [--home <dir>] [--data-dir <dir>]
  skillpin doctor [--json] [--home <dir>] [--data-dir <dir>]   how the installation stands
  skillpin mcp            the MCP server (stdio) over the mirror
  skillpin native-host    started by the browser, not by hand
  skillpin --version      the program's version`;

interface Flags {
  chromeIds: string[];
  chromeProfiles: string[];
  overrides: PlaceOverrides;
}

function flags(args: string[]): Flags {
  const out: Flags = { chromeIds: [], chromeProfiles: [], overrides: {} };
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    const value = args[i + 1];
    if (value === undefined) throw new Error(`${name} needs a value.\n${USAGE}`);
    if (name === '--chrome-id') out.chromeIds.push(value);
    else if (name === '--chrome-profile') out.chromeProfiles.push(resolve(value));
    else if (name === '--home') out.overrides.home = resolve(value);
    else if (name === '--data-dir') out.overrides.dataDir = resolve(value);
    else throw new Error(`Unknown option ${name}.\n${USAGE}`);
  }
  return out;
}

/** The environment the launcher and the MCP client set: the overrides given, so the host finds the same folders. */
function launchEnv(f: Flags): Record<string, string> {
  const env: Record<string, string> = {};
  const home = f.overrides.home ?? process.env.SKILLPIN_HOME;
  const dataDir = f.overrides.dataDir ?? process.env.SKILLPIN_DATA_DIR;
  if (home) env.SKILLPIN_HOME = home;
  if (dataDir) env.SKILLPIN_DATA_DIR = dataDir;
  return env;
}

const runCommand = (command: string, args: string[]): void => {
  execFileSync(command, args, { stdio: 'ignore' });
};

function installHost(args: string[]): void {
  const f = flags(args);
  const p = places(f.overrides);
  const program = fileURLToPath(import.meta.url);
  const env = launchEnv(f);
  const outcome = install(p, { chromeIds: f.chromeIds, chromeProfiles: f.chromeProfiles, program, node: process.execPath, env, run: runCommand });
  process.stdout.write(installText(outcome, mcpConfig(p, process.execPath, env), p.platform));
}

/** The command that installs this program again, with the Chrome ids install.json recorded. */
function reinstallCommand(p: Places): string {
  const ids = (readInstallRecord(p)?.chromeIds ?? []).map((id) => ` --chrome-id ${id}`).join('');
  const fromPackage = /[\\/]node_modules[\\/]/.test(fileURLToPath(import.meta.url));
  return `${fromPackage ? `npx skillpin@${HOST_VERSION}` : 'bin/skillpin'} install-host${ids}`;
}

function runDoctor(args: string[]): number {
  const asJson = args.includes('--json');
  const f = flags(args.filter((a) => a !== '--json'));
  const p = places(f.overrides);
  const report = doctor(p, launchEnv(f), reinstallCommand(p));
  process.stdout.write(asJson ? `${JSON.stringify(report, null, 2)}\n` : doctorText(report, p.platform));
  return report.problems.length === 0 ? 0 : 1;
}

function uninstallHost(args: string[]): void {
  const f = flags(args);
  const { removedFiles, removedSkills } = uninstall(places(f.overrides), runCommand);
  const lines = ['Skillpin host removed.', `  ${removedSkills} mirrored skill(s) and their agent-folder copies removed`, ...removedFiles.map((file) => `  removed ${file}`)];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'native-host':
        await runNativeHost(rest, places());
        return 0;
      case 'mcp':
        await runMcpServer(places());
        return -1;
      case 'install-host':
        installHost(rest);
        return 0;
      case 'uninstall-host':
        uninstallHost(rest);
        return 0;
      case 'doctor':
        return runDoctor(rest);
      case '--version':
      case 'version':
        process.stdout.write(`skillpin ${HOST_VERSION}\n`);
        return 0;
      default:
        process.stderr.write(`${USAGE}\n`);
        return command === undefined || command === '--help' ? 0 : 2;
    }
  } catch (error) {
    process.stderr.write(`skillpin: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

// Run when bundled as skillpin.mjs; a test importing this module passes through.
if (process.argv[1] !== undefined && /skillpin\.mjs$/.test(process.argv[1])) {
  void main(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}
