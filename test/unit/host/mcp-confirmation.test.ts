// The MCP server serves only what needs no confirmation or was confirmed. A skill that
// grants tools is handed over twice (two browser profiles): once without the skill-level
// confirmedRevision, once with it. `skillpin mcp`, spawned with the SDK's client, serves only the
// confirmed one; a plain skill needs none.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer } from '../../../host/native-host';
import { places as makePlaces } from '../../../host/places';
import { CHROME_CALLER, choices, messagesFor, NO_NETWORK, SKILLPIN_BIN, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';

let t: TempPlaces;
const unconfirmed = textSkill('tooling', skillMd('tooling', 'Runs Bash', 'allowed-tools: Bash\n'), { origin: 'https://one.example', url: 'https://one.example/tooling/SKILL.md' });
const confirmed = textSkill('tooling', skillMd('tooling', 'Runs Bash', 'allowed-tools: Bash\n'), { origin: 'https://two.example', url: 'https://two.example/tooling/SKILL.md' });
const plain = textSkill('plain', skillMd('plain', 'Text only'));

beforeAll(async () => {
  t = tempPlaces();
  const ctx = { allowed: true, caller: CHROME_CALLER, places: makePlaces({ home: t.home, dataDir: t.dataDir }), now: () => Date.now() };
  const send = (m: unknown) => answer(Buffer.from(JSON.stringify(m)), ctx);
  const none = await messagesFor([unconfirmed, plain], choices([]));
  send({ ...none.sync, profile: 'd'.repeat(32) });
  for (const put of none.puts) expect(send({ ...put, profile: 'd'.repeat(32) })).toMatchObject({ type: 'stored' });
  const yes = await messagesFor([confirmed], { agents: [], confirmed: () => false, skillConfirmed: () => true });
  expect(yes.sync.skills[0]?.confirmedRevision).toBe(yes.sync.skills[0]?.revision);
  const profile = 'e'.repeat(32);
  send({ ...yes.sync, profile });
  for (const put of yes.puts) expect(send({ ...put, profile })).toMatchObject({ type: 'stored' });
});
afterAll(() => t.cleanup());

describe('skillpin mcp and the skill-level confirmation', () => {
  it('serves a skill that grants tools only with its confirmation, and says why the other is held back', async () => {
    const client = new Client({ name: 'skillpin-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--require', NO_NETWORK, SKILLPIN_BIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', SKILLPIN_DATA_DIR: t.dataDir, SKILLPIN_HOME: t.home },
        stderr: 'pipe',
      }),
    );
    try {
      const list = (await client.request({ method: 'skills/list', params: {} }, z.any())) as { skills: { uri: string; _meta: Record<string, unknown> }[] };
      expect(list.skills.map((s) => s._meta['dev.skillpin/origin']).sort()).toEqual(['https://skills.example', 'https://two.example']);
      await expect(client.request({ method: 'skills/get', params: { uri: 'skill://one.example/tooling/SKILL.md' } }, z.any())).rejects.toThrow(/need a confirmation/);
      await expect(client.readResource({ uri: 'skill://one.example/tooling/SKILL.md' })).rejects.toThrow(/not served/);
    } finally {
      await client.close();
    }
  });
});
