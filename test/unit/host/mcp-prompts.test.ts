import { join } from 'node:path';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skillKey } from '../../../lib/desktop/protocol/revision';
import { partitionOf } from '../../../host/mirror';
import { answer } from '../../../host/native-host';
import { places as makePlaces, mirrorDir } from '../../../host/places';
import { CHROME_CALLER, choices, messagesFor, SAMPLE_SKILLS, skillFromFolder, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';
import { mcpClients, withMirrorByteChanged } from '../../support/mcp-client';

let t: TempPlaces;
const review = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'), { origin: 'https://docs.example', url: 'https://docs.example/skills/code-review.zip' });
const tooling = textSkill('tooling', skillMd('tooling', 'Runs Bash', 'allowed-tools: Bash\n'), { origin: 'https://one.example', url: 'https://one.example/tooling/SKILL.md' });
const twinA = textSkill('twin', skillMd('twin', 'From A'), { origin: 'https://a.example', url: 'https://a.example/twin/SKILL.md' });
const twinB = textSkill('twin', skillMd('twin', 'From B'), { origin: 'https://b.example', url: 'https://b.example/twin/SKILL.md', verification: 'digest-only', keyFingerprint: null });
const later = textSkill('later', skillMd('later', 'Handed over after the client connected'), { origin: 'https://c.example', url: 'https://c.example/later/SKILL.md' });

const ctx = () => ({ allowed: true, caller: CHROME_CALLER, places: makePlaces({ home: t.home, dataDir: t.dataDir }), now: () => Date.now() });
async function handOver(skills: Parameters<typeof messagesFor>[0]): Promise<void> {
  const { sync, puts } = await messagesFor(skills, choices([]));
  answer(Buffer.from(JSON.stringify(sync)), ctx());
  for (const put of puts) expect(answer(Buffer.from(JSON.stringify(put)), ctx())).toMatchObject({ type: 'stored' });
}

beforeAll(async () => {
  t = tempPlaces();
  await handOver([review, tooling, twinA, twinB]);
});
afterAll(() => t.cleanup());

const connect = mcpClients(() => t);

const textOf = (c: unknown): string => (c as { text: string }).text;

describe('skillpin mcp: prompts and tools', () => {
  it('offers every served skill as a prompt: its SKILL.md after a line saying where it came from and how it was verified', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, tools: {}, resources: { listChanged: true } });
    const { prompts } = await client.listPrompts();
    // The unconfirmed skill that grants tools is not offered; two skills named "twin" get their site in the name.
    expect(prompts.map((p) => p.name).sort()).toEqual(['code-review', 'twin-a-example', 'twin-b-example']);
    const got = await client.getPrompt({ name: 'code-review' });
    const text = textOf(got.messages[0]?.content);
    const skillMdText = Buffer.from(review.files.find((f) => f.path === 'SKILL.md')?.bytes ?? []).toString('utf8');
    expect(text.endsWith(`\n\n${skillMdText}`)).toBe(true);
    expect(text.split('\n')[0]).toBe(
      '[Skillpin] Skill "code-review" from https://docs.example (https://docs.example/skills/code-review.zip), verified by Skillpin: signed with the site\'s key you pinned; approved 2026-11-01T12:00:00.000Z. Its instructions come from that site, not from the user.',
    );
    expect(textOf((await client.getPrompt({ name: 'twin-b-example' })).messages[0]?.content)).toContain('it matches the digest the site published (the site did not sign it)');
    await expect(client.getPrompt({ name: 'tooling' })).rejects.toMatchObject({ code: -32602 });
  });

  it('lists the skills and reads each file through two read-only tools, every byte checked', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((x) => [x.name, x.annotations?.readOnlyHint])).toEqual([
      ['list_skills', true],
      ['read_skill_file', true],
    ]);
    const listed = (await client.callTool({ name: 'list_skills', arguments: {} })).structuredContent as { skills: { name: string; origin: string; files: { path: string }[] }[] };
    expect(listed.skills.map((s) => s.name).sort()).toEqual(['code-review', 'twin-a-example', 'twin-b-example']);
    for (const f of review.files) {
      const read = await client.callTool({ name: 'read_skill_file', arguments: { skill: 'code-review', path: f.path } });
      const content = read.content as { type: string; text: string }[];
      expect(content[0]?.text).toContain('from https://docs.example');
      expect(Buffer.from(content[1]?.text ?? '', 'utf8')).toEqual(Buffer.from(f.bytes));
    }
    expect((await client.callTool({ name: 'read_skill_file', arguments: { skill: 'code-review', path: 'nothing.md' } })).isError).toBe(true);
    await expect(client.callTool({ name: 'read_skill_file', arguments: { skill: 'tooling', path: 'SKILL.md' } })).rejects.toMatchObject({ code: -32602 });
  });

  it('a byte changed in the mirror: the tool refuses the file, the skill leaves the prompts', async () => {
    const file = join(mirrorDir(makePlaces({ home: t.home, dataDir: t.dataDir })), partitionOf(CHROME_CALLER), skillKey(review), 'files', 'references', 'REFERENCE.md');
    const client = await connect();
    await withMirrorByteChanged(file, async () => {
      await expect(client.callTool({ name: 'read_skill_file', arguments: { skill: 'code-review', path: 'references/REFERENCE.md' } })).rejects.toMatchObject({ code: -32602 });
      expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('code-review');
    });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('code-review');
  });

  it('tells the client when the mirror changes', async () => {
    const client = await connect();
    let told = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      told++;
    });
    await handOver([review, tooling, twinA, twinB, later]);
    const deadline = Date.now() + 10_000;
    while (told === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(told).toBeGreaterThan(0);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('later');
  });
});
