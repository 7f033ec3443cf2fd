// The desktop program as a new user meets it, for the end-to-end journeys: packed by
// scripts/pack-host.mjs, installed from the packed file into a fresh npm prefix by a fresh home
// with an empty cache and no registry reachable (any fetch npm tried would fail), and then run from
// that prefix with HOME set to the fresh home and nothing else pointing anywhere: the data folder,
// the agent folders and the browsers' manifest folders are the defaults of that home. Also the
// checks of what `skillpin mcp` from that prefix serves, through the MCP SDK's own client.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from '@playwright/test';
import { z } from 'zod';
import { NO_NETWORK, REPO_ROOT } from '../../support/desktop';

export interface PackedHost {
  /** The temporary folder everything below lives in. */
  root: string;
  /** The fresh home: empty before the install. */
  home: string;
  /** The npm prefix the package was installed into. */
  prefix: string;
  /** `<prefix>/bin/skillpin`, the command npm put there. */
  skillpin: string;
  /** The data folder the program picks by default in that home (Linux: ~/.local/share/skillpin). */
  dataDir: string;
  cleanup(): void;
}

/**
 * The environment of everything started for the fresh home: HOME, and the variables that would
 * otherwise move the program's folders emptied (an empty value counts as unset there).
 */
export function freshHomeEnv(home: string): Record<string, string> {
  return { HOME: home, SKILLPIN_HOME: '', SKILLPIN_DATA_DIR: '', XDG_DATA_HOME: '' };
}

/** The environment `skillpin` runs with here: only PATH and the fresh home, any network use made to fail and show. */
function programEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NODE_OPTIONS: `--require ${NO_NETWORK}` };
}

/** Packs the program and installs the packed file offline into a fresh prefix by a fresh home. */
export function installPacked(): PackedHost {
  const root = mkdtempSync(join(tmpdir(), 'skillpin-packed-'));
  const home = join(root, 'home');
  const prefix = join(root, 'prefix');
  mkdirSync(home);
  const packed =
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'pack-host.mjs')], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1) ?? '';
  expect(basename(packed)).toMatch(/^skillpin-\d+\.\d+\.\d+\.tgz$/);
  // A copy of our own: the packed file in .output is made again by every pack.
  const tgz = join(root, basename(packed));
  copyFileSync(packed, tgz);
  const npm = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tgz], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      npm_config_cache: join(root, 'npm-cache'),
      // Nothing listens there: a package npm would have to fetch fails the install.
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_update_notifier: 'false',
    },
  });
  expect(npm.status, `npm install failed:\n${npm.stdout}\n${npm.stderr}`).toBe(0);
  return {
    root,
    home,
    prefix,
    skillpin: join(prefix, 'bin', 'skillpin'),
    dataDir: join(home, '.local', 'share', 'skillpin'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs the installed `skillpin` with the fresh home; its standard output. */
export function runInstalled(host: PackedHost, args: string[]): string {
  const out = spawnSync(host.skillpin, args, { encoding: 'utf8', env: programEnv(host.home) });
  expect(out.stderr).not.toContain('SKILLPIN-NETWORK-ATTEMPT');
  expect(out.status, `skillpin ${args.join(' ')} failed:\n${out.stdout}\n${out.stderr}`).toBe(0);
  return out.stdout;
}

/**
 * Every SKILL.md under the home outside the program's data folder, relative to the home and
 * sorted: the copies some agent may read. Files a browser adds or removes meanwhile are skipped.
 */
export function skillFilesInHome(host: PackedHost): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      if (full === host.dataDir) continue;
      try {
        const st = lstatSync(full);
        if (st.isDirectory()) walk(full);
        else if (name === 'SKILL.md') out.push(relative(host.home, full));
      } catch {
        // gone meanwhile
      }
    }
  };
  walk(host.home);
  return out.sort();
}

export interface ApprovedSkill {
  name: string;
  origin: string;
  url: string;
  /** SKILL.md exactly as the site serves it. */
  skillMd: Buffer;
}

const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

type SkillEntry = { uri: string; resources: { uri: string; digest: string; size: number }[]; _meta: Record<string, unknown> };

/**
 * Starts `<prefix>/bin/skillpin mcp` with the fresh home under the MCP SDK's client and checks that it
 * serves `skill` every way it serves skills: as a prompt (its SKILL.md after the line saying where
 * it came from and that Skillpin verified it), through the tools list_skills and read_skill_file,
 * and through the Skills extension's skills/list, skills/get and resources/read. Nothing else is
 * served.
 */
export async function expectServedByInstalledMcp(host: PackedHost, skill: ApprovedSkill): Promise<void> {
  let stderr = '';
  const client = new Client({ name: 'skillpin-e2e-packed', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: host.skillpin, args: ['mcp'], env: programEnv(host.home), stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await client.connect(transport);
  try {
    const text = skill.skillMd.toString('utf8');
    const provenance = expect.stringMatching(/^\[Skillpin\] Skill "/);

    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual([skill.name]);
    const prompt = await client.getPrompt({ name: skill.name });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: expect.any(String) } }]);
    const promptText = (prompt.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
    const [line, ...rest] = promptText.split('\n\n');
    expect(line).toContain(`Skill "${skill.name}" from ${skill.origin} (${skill.url})`);
    expect(line).toContain("verified by Skillpin: signed with the site's key you pinned");
    expect(line).not.toContain('\n');
    expect(rest.join('\n\n')).toBe(text);

    const listed = await client.callTool({ name: 'list_skills', arguments: {} });
    expect((listed.structuredContent as { skills: unknown[] }).skills).toEqual([
      expect.objectContaining({
        name: skill.name,
        origin: skill.origin,
        url: skill.url,
        verification: 'signed',
        files: [{ path: 'SKILL.md', size: skill.skillMd.length, sha256: sha(skill.skillMd).slice('sha256:'.length) }],
      }),
    ]);
    const read = await client.callTool({ name: 'read_skill_file', arguments: { skill: skill.name, path: 'SKILL.md' } });
    expect(read.isError).toBeFalsy();
    expect(read.content).toEqual([
      { type: 'text', text: provenance },
      { type: 'text', text: expect.any(String) },
    ]);
    const file = (read.content as { text: string }[])[1]?.text ?? '';
    expect(Buffer.from(file, 'utf8').equals(skill.skillMd)).toBe(true);

    const list = (await client.request({ method: 'skills/list', params: {} }, z.any())) as { skills: SkillEntry[] };
    const uri = `skill://${new URL(skill.origin).host.replace(':', '_')}_http/${skill.name}/SKILL.md`;
    expect(list.skills.map((s) => s.uri)).toEqual([uri]);
    const got = (await client.request({ method: 'skills/get', params: { uri } }, z.any())) as { skill: SkillEntry };
    expect(got.skill).toMatchObject({
      uri,
      resources: [{ uri, digest: sha(skill.skillMd), size: skill.skillMd.length }],
      _meta: { 'dev.skillpin/origin': skill.origin, 'dev.skillpin/url': skill.url, 'dev.skillpin/verification': 'signed' },
    });
    const contents = (await client.readResource({ uri })).contents[0] as { text?: string; blob?: string };
    const bytes = typeof contents.text === 'string' ? Buffer.from(contents.text, 'utf8') : Buffer.from(contents.blob ?? '', 'base64');
    expect(bytes.equals(skill.skillMd)).toBe(true);
  } finally {
    await client.close();
  }
  // Checked once the server has stopped, so a failure above is not hidden by this one.
  expect(stderr).not.toContain('SKILLPIN-NETWORK-ATTEMPT');
}

/** The native-messaging launcher install-host wrote in the default data folder. */
export const launcherOf = (host: PackedHost): string => join(host.dataDir, 'bin', 'skillpin-native-host');
