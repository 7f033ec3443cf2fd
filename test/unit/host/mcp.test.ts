// `skillpin mcp` spawned by the SDK's client over stdio, against a mirror the host wrote: the
// Skills extension's capability, skills/list and skills/get with complete manifests, every file
// read and checked against the entry's digest and size, directories, and a byte changed on disk
// that is then not served. The Skills working group's reference client reads it the same way.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { getSkill, listSkills, readSkill, readSkillResource, serverSupportsDirectoryRead, serverSupportsSkills } from '@olaservo/ext-skills/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skillKey } from '../../../lib/desktop/protocol/revision';
import { partitionOf } from '../../../host/mirror';
import { answer } from '../../../host/native-host';
import { places as makePlaces, mirrorDir } from '../../../host/places';
import { CHROME_CALLER, messagesFor, SAMPLE_SKILLS, skillFromFolder, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';
import { mcpClients, withMirrorByteChanged } from '../../support/mcp-client';

let t: TempPlaces;
const review = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'), { origin: 'https://docs.example', url: 'https://docs.example/skills/code-review.zip' });
const refunds = skillFromFolder(join(SAMPLE_SKILLS, 'acme/billing/refunds'), {
  origin: 'http://127.0.0.1:8080',
  url: 'http://127.0.0.1:8080/refunds.zip',
  verification: 'digest-only',
  keyFingerprint: null,
});
const crlf = textSkill('crlf-lines', skillMd('crlf-lines', 'Kept byte for byte').replace(/\n/g, '\r\n'));

beforeAll(async () => {
  t = tempPlaces();
  const p = makePlaces({ home: t.home, dataDir: t.dataDir });
  const { sync, puts } = await messagesFor([review, refunds, crlf]);
  const ctx = { allowed: true, caller: CHROME_CALLER, places: p, now: () => Date.now() };
  answer(Buffer.from(JSON.stringify(sync)), ctx);
  for (const put of puts) expect(answer(Buffer.from(JSON.stringify(put)), ctx)).toMatchObject({ type: 'stored' });
});
afterAll(() => t.cleanup());

const connect = mcpClients(() => t);

const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface Entry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
  _meta: Record<string, unknown>;
}

function bytesOf(content: { text?: string; blob?: string }): Buffer {
  return typeof content.text === 'string' ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob ?? '', 'base64');
}

describe('skillpin mcp with the SDK client', () => {
  it('declares the Skills extension and lists every mirrored skill with complete manifests, each file verified', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } });
    const list = (await client.request({ method: 'skills/list', params: {} }, z.any())) as { resultType: string; skills: Entry[]; ttlMs: number; cacheScope: string };
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 10_000, cacheScope: 'private' });
    expect(list.skills.map((s) => s.uri)).toEqual(['skill://127.0.0.1_8080_http/refunds/SKILL.md', 'skill://docs.example/code-review/SKILL.md', 'skill://skills.example/crlf-lines/SKILL.md']);
    const entry = list.skills.find((s) => s.uri.includes('code-review')) as Entry;
    expect(entry.frontmatter).toEqual({ name: 'code-review', description: expect.stringContaining('structured code reviews'), metadata: { author: 'skills-over-mcp-ig', version: '0.1' } });
    expect(entry._meta).toMatchObject({
      'dev.skillpin/origin': 'https://docs.example',
      'dev.skillpin/verification': 'signed',
      'dev.skillpin/keyFingerprint': review.keyFingerprint,
      'dev.skillpin/approvedAt': '2026-11-01T12:00:00.000Z',
    });
    for (const skill of list.skills) {
      const source = [review, refunds, crlf].find((s) => s.origin === skill._meta['dev.skillpin/origin']);
      expect(skill.resources.length).toBe(source?.files.length);
      expect(skill.resources[0]?.uri).toBe(skill.uri);
      for (const r of skill.resources) {
        const read = await client.readResource({ uri: r.uri });
        const bytes = bytesOf(read.contents[0] as { text?: string; blob?: string });
        expect(bytes.length).toBe(r.size);
        expect(sha(bytes)).toBe(r.digest);
        const path = r.uri.slice(skill.uri.length - 'SKILL.md'.length);
        expect(bytes).toEqual(Buffer.from(source?.files.find((f) => f.path === path)?.bytes ?? []));
      }
    }
  });

  it('skills/get answers a served skill and -32602 for any other URI', async () => {
    const client = await connect();
    const got = (await client.request({ method: 'skills/get', params: { uri: 'skill://docs.example/code-review/SKILL.md' } }, z.any())) as { resultType: string; skill: Entry };
    expect(got).toMatchObject({ resultType: 'complete', skill: { uri: 'skill://docs.example/code-review/SKILL.md' }, cacheScope: 'private' });
    await expect(client.request({ method: 'skills/get', params: { uri: 'skill://docs.example/nothing/SKILL.md' } }, z.any())).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 'skill://docs.example/code-review/missing.md' })).rejects.toMatchObject({ code: -32602 });
  });

  it('resources/directory/read lists the direct children of a skill directory', async () => {
    const client = await connect();
    const root = (await client.request({ method: 'resources/directory/read', params: { uri: 'skill://docs.example/code-review' } }, z.any())) as { resources: unknown[] };
    expect(root.resources).toEqual([
      { uri: 'skill://docs.example/code-review/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
      { uri: 'skill://docs.example/code-review/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    await expect(client.request({ method: 'resources/directory/read', params: { uri: 'skill://docs.example/code-review/SKILL.md' } }, z.any())).rejects.toMatchObject({ code: -32602 });
  });

  it('the reference client of the Skills working group lists, gets and reads every file verified', async () => {
    const client = await connect();
    expect(serverSupportsSkills(client)).toBe(true);
    expect(serverSupportsDirectoryRead(client)).toBe(true);
    const entries = await listSkills(client);
    expect(entries.length).toBe(3);
    for (const entry of entries) {
      const text = await readSkill(client, entry);
      expect(text.length).toBeGreaterThan(0);
      for (const r of entry.resources as { uri: string }[]) await readSkillResource(client, entry, r.uri);
      expect((await getSkill(client, entry.uri)).uri).toBe(entry.uri);
    }
  });

  it('a byte changed in the mirror on disk: the file is not served and the skill leaves skills/list', async () => {
    const file = join(mirrorDir(makePlaces({ home: t.home, dataDir: t.dataDir })), partitionOf(CHROME_CALLER), skillKey(review), 'files', 'references', 'REFERENCE.md');
    const client = await connect();
    await withMirrorByteChanged(file, async () => {
      await expect(client.readResource({ uri: 'skill://docs.example/code-review/references/REFERENCE.md' })).rejects.toMatchObject({ code: -32602 });
      await expect(client.readResource({ uri: 'skill://docs.example/code-review/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
      const list = (await client.request({ method: 'skills/list', params: {} }, z.any())) as { skills: Entry[] };
      expect(list.skills.map((s) => s.uri)).not.toContain('skill://docs.example/code-review/SKILL.md');
      expect(list.skills.length).toBe(2);
      await expect(client.request({ method: 'skills/get', params: { uri: 'skill://docs.example/code-review/SKILL.md' } }, z.any())).rejects.toMatchObject({ code: -32602 });
    });
    const back = (await client.request({ method: 'skills/list', params: {} }, z.any())) as { skills: Entry[] };
    expect(back.skills.length).toBe(3);
  });
});
