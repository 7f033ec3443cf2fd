// What `skillpin install-host` prints: what it wrote, the MCP configuration in both shapes, where each
// MCP client keeps it, which browsers can now start the program, and what to do next in the browser.
// `skillpin doctor` prints the same configuration and places (host/doctor-text.ts).
import { type install, type McpConfig, quoteSh } from './install';

/** The MCP configuration in both shapes, then where each client reads it. */
export function mcpLines(config: McpConfig, platform: NodeJS.Platform): string[] {
  // Claude Code takes the server itself; a stdio server says so there.
  const server = JSON.stringify({ type: 'stdio', ...config.mcpServers.mcpServers.skillpin });
  const windows = platform === 'win32';
  return [
    'MCP configuration for Claude Desktop, Claude Code and Cursor ("mcpServers"):',
    JSON.stringify(config.mcpServers, null, 2),
    '',
    'For VS Code ("servers"):',
    JSON.stringify(config.vscode, null, 2),
    '',
    'Where each MCP client reads it:',
    '  Claude Desktop: the "mcpServers" block in claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\), then restart Claude Desktop.',
    `  Claude Code: run  claude mcp add-json --scope user skillpin ${quoteSh(server)}${windows ? '  (in PowerShell)' : ''}`,
    '    (every project of yours), or put the "mcpServers" block in a project\'s .mcp.json.',
    `  Cursor: the "mcpServers" block in ${windows ? '%USERPROFILE%\\.cursor\\mcp.json' : '~/.cursor/mcp.json'} (or a project's .cursor/mcp.json).`,
    '  VS Code: the "servers" block in a workspace\'s .vscode/mcp.json, or in the user configuration the command "MCP: Open User Configuration" opens.',
  ];
}

export function installText(outcome: ReturnType<typeof install>, config: McpConfig, platform: NodeJS.Platform): string {
  const { record, notes, registered } = outcome;
  const lines = [
    'Skillpin host installed.',
    ...record.files.map((file) => `  wrote ${file}`),
    ...record.registry.map((key) => `  registry ${key}`),
    ...notes.map((n) => `Note: ${n}`),
    '',
    ...mcpLines(config, platform),
    '',
    registered.length === 0 ? 'Registered with no browser.' : 'Registered with these browsers (where each one reads it):',
    ...registered.map((r) => `  ${r.browser}: ${r.at}`),
    '',
    "Next: open Skillpin's settings page, section Desktop agents, and press Check again; then tick the agents that should have your skills.",
  ];
  return `${lines.join('\n')}\n`;
}
