// An MCP client over stdio to the real `bin/skillpin mcp`, started with every network call made to
// fail loudly (test/support/no-network.cjs). The clients a test opened are closed after it, and the
// server's standard error must not report a network attempt.
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, expect } from 'vitest';
import { NO_NETWORK, SKILLPIN_BIN } from './desktop';

/** Registers the clean-up and answers the function that connects a new client to the folders `where()` names. */
export function mcpClients(where: () => { dataDir: string; home: string }): () => Promise<Client> {
  const clients: Client[] = [];
  let stderr = '';
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    expect(stderr).not.toContain('SKILLPIN-NETWORK-ATTEMPT');
  });
  return async function connect(): Promise<Client> {
    const { dataDir, home } = where();
    const client = new Client({ name: 'skillpin-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--require', NO_NETWORK, SKILLPIN_BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', SKILLPIN_DATA_DIR: dataDir, SKILLPIN_HOME: home },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
}

/**
 * Flips one bit of a mirrored file on disk (behind the host's back), runs `check`, and puts the
 * file back whatever happens.
 */
export async function withMirrorByteChanged(file: string, check: () => Promise<void>): Promise<void> {
  const original = readFileSync(file);
  const changed = Buffer.from(original);
  changed[10] = (changed[10] as number) ^ 0x01;
  writeFileSync(file, changed);
  try {
    await check();
  } finally {
    writeFileSync(file, original);
  }
}
