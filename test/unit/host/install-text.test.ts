// What install-host prints after a real install over a temporary home: both MCP blocks, where each
// client reads them with this installation's server in the Claude Code command (which a POSIX shell
// hands over intact, quotes and all), the browsers registered with, and what to do next, last.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { install, mcpConfig } from '../../../host/install';
import { installText } from '../../../host/install-text';
import { places } from '../../../host/places';
import { CHROME_ID, type TempPlaces, tempPlaces } from '../../support/desktop';

let t: TempPlaces;
beforeEach(() => {
  t = tempPlaces();
  mkdirSync(join(t.home, '.config/BraveSoftware/Brave-Browser'), { recursive: true });
  writeFileSync(join(t.root, 'program.mjs'), '// the bundle\n');
});
afterEach(() => t.cleanup());

const NEXT = "Next: open Skillpin's settings page, section Desktop agents, and press Check again; then tick the agents that should have your skills.";

function installed(platform: NodeJS.Platform, env: Record<string, string>) {
  const p = places({ home: t.home, dataDir: t.dataDir, platform, env: {} });
  const outcome = install(p, { chromeIds: [CHROME_ID], chromeProfiles: [], program: join(t.root, 'program.mjs'), node: '/usr/bin/node', env, run: () => undefined });
  const config = mcpConfig(p, '/usr/bin/node', env);
  return { config, text: installText(outcome, config, platform) };
}

describe('install-host’s closing text', () => {
  it('says where each client reads the configuration, which browsers can start the program, and ends with what to do next', () => {
    const env = { SKILLPIN_DATA_DIR: t.dataDir };
    const { config, text } = installed('linux', env);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(NEXT);
    expect(text).toContain(`("mcpServers"):\n${JSON.stringify(config.mcpServers, null, 2)}\n`);
    expect(text).toContain(`("servers"):\n${JSON.stringify(config.vscode, null, 2)}\n`);
    expect(config.mcpServers.mcpServers.skillpin).toEqual({ command: join(t.dataDir, 'bin', 'skillpin'), args: ['mcp'], env });
    const server = JSON.stringify({ type: 'stdio', ...config.mcpServers.mcpServers.skillpin });
    expect(lines).toContain(`  Claude Code: run  claude mcp add-json --scope user skillpin '${server}'`);
    expect(text).toContain('or put the "mcpServers" block in a project\'s .mcp.json.');
    expect(lines).toContain(
      '  Claude Desktop: the "mcpServers" block in claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\), then restart Claude Desktop.',
    );
    expect(lines).toContain('  Cursor: the "mcpServers" block in ~/.cursor/mcp.json (or a project\'s .cursor/mcp.json).');
    expect(lines).toContain('  VS Code: the "servers" block in a workspace\'s .vscode/mcp.json, or in the user configuration the command "MCP: Open User Configuration" opens.');
    const browsers = lines.slice(lines.indexOf('Registered with these browsers (where each one reads it):') + 1, lines.length - 2);
    expect(browsers).toEqual([
      `  Google Chrome: ${join(t.home, '.config/google-chrome/NativeMessagingHosts/dev.skillpin.mirror.json')}`,
      `  Chromium: ${join(t.home, '.config/chromium/NativeMessagingHosts/dev.skillpin.mirror.json')}`,
      `  Brave: ${join(t.home, '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.skillpin.mirror.json')}`,
      `  Firefox: ${join(t.home, '.mozilla/native-messaging-hosts/dev.skillpin.mirror.json')}`,
    ]);
    // The MCP blocks come before where they go, which comes before the browsers and the next step.
    expect(text.indexOf('"mcpServers"')).toBeLessThan(text.indexOf('Where each MCP client reads it:'));
    expect(text.indexOf('Where each MCP client reads it:')).toBeLessThan(text.indexOf('Registered with these browsers'));
  });

  it('the Claude Code command reaches claude with the server’s JSON intact, even with a quote in a path', () => {
    const env = { SKILLPIN_HOME: "/home/o'brien", SKILLPIN_DATA_DIR: t.dataDir };
    const { config, text } = installed('linux', env);
    const command = /^ {2}Claude Code: run {2}(.*)$/m.exec(text)?.[1] ?? '';
    const args = execFileSync('sh', ['-c', `claude() { for a in "$@"; do printf '%s\\0' "$a"; done; }; ${command}`], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    expect(args.slice(0, 5)).toEqual(['mcp', 'add-json', '--scope', 'user', 'skillpin']);
    expect(JSON.parse(args[5] ?? '')).toEqual({ type: 'stdio', ...config.mcpServers.mcpServers.skillpin });
  });

  it('on Windows: the registry keys as the browsers registered with, and the Windows places', () => {
    const { text } = installed('win32', {});
    expect(text).toContain('  Microsoft Edge: HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.skillpin.mirror\n');
    expect(text).toContain('  Firefox: HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.skillpin.mirror\n');
    expect(text).toContain('%USERPROFILE%\\.cursor\\mcp.json');
    expect(text.trimEnd().endsWith(NEXT)).toBe(true);
  });
});
