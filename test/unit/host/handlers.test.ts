// The host's handling of sync and put, in process, over temporary folders: the mirror holds the
// files byte for byte, agent copies appear and go, and every refusal leaves the disk as it was.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROVENANCE_FILE } from '../../../lib/desktop/protocol/limits';
import type { HostReply } from '../../../lib/desktop/protocol/wire';
import { skillKey } from '../../../lib/desktop/protocol/revision';
import { Mirror, partitionOf } from '../../../host/mirror';
import { answer } from '../../../host/native-host';
import { places as makePlaces, mirrorDir } from '../../../host/places';
import { CHROME_CALLER, choices, messagesFor, SAMPLE_SKILLS, skillFromFolder, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';

let t: TempPlaces;
beforeEach(() => {
  t = tempPlaces();
});
afterEach(() => t.cleanup());

const ctx = () => ({ allowed: true, caller: CHROME_CALLER, places: makePlaces({ home: t.home, dataDir: t.dataDir }), now: () => Date.UTC(2026, 10, 3) });
const send = (message: unknown): HostReply => answer(Buffer.from(JSON.stringify(message)), ctx());

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${name.name}` : name.name;
      if (name.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path)).toString('base64');
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

const claude = () => join(t.home, '.claude', 'skills');

describe('sync and put', () => {
  it('stores a multi-file skill byte for byte and copies it to the picked agent with a provenance file', async () => {
    const skill = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'));
    const { sync, puts } = await messagesFor([skill], choices(['claude-code']));
    const synced = send(sync);
    expect(synced).toMatchObject({ type: 'synced', missing: [{ origin: skill.origin, url: skill.url }], removed: [] });
    const stored = send(puts[0]);
    expect(stored).toMatchObject({ type: 'stored', agents: [{ agent: 'claude-code', state: 'written', folder: 'code-review' }] });

    const record = new Mirror(mirrorDir(ctx().places)).record(partitionOf(CHROME_CALLER), skillKey(skill));
    expect(record?.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/REFERENCE.md']);
    const mirrored = tree(join(mirrorDir(ctx().places), partitionOf(CHROME_CALLER), skillKey(skill), 'files'));
    const source = tree(join(SAMPLE_SKILLS, 'code-review'));
    expect(mirrored).toEqual(source);
    const copy = tree(join(claude(), 'code-review'));
    const { [PROVENANCE_FILE]: provenance, ...files } = copy;
    expect(files).toEqual(source);
    const p = JSON.parse(Buffer.from(provenance as string, 'base64').toString('utf8'));
    expect(p).toMatchObject({ origin: skill.origin, url: skill.url, keyFingerprint: skill.keyFingerprint, verification: 'signed', digests: { skillMdRaw: skill.digestRaw } });

    // A second sync with the same revision changes nothing and asks for nothing.
    const again = send({ ...sync, id: 9 });
    expect(again).toMatchObject({ type: 'synced', missing: [], removed: [], agents: [{ state: 'unchanged' }] });
  });

  it('removes a skill left out of the sync at once, with its agent copy', async () => {
    const a = textSkill('alpha', skillMd('alpha', 'First'));
    const b = textSkill('beta', skillMd('beta', 'Second'));
    const first = await messagesFor([a, b], choices(['claude-code', 'gemini-cli']));
    send(first.sync);
    for (const p of first.puts) send(p);
    expect(readdirSync(claude()).sort()).toEqual(['alpha', 'beta']);
    const second = await messagesFor([b], choices(['claude-code']));
    const reply = send(second.sync);
    expect(reply).toMatchObject({ type: 'synced', removed: [{ url: a.url }], missing: [] });
    expect(readdirSync(claude())).toEqual(['beta']);
    // beta's Gemini copy went with the agent being unpicked; alpha's with the skill.
    expect(readdirSync(join(t.home, '.gemini', 'skills'))).toEqual([]);
    expect(new Mirror(mirrorDir(ctx().places)).records().map((r) => r.name)).toEqual(['beta']);
  });

  it('a changed revision removes the old copy at once and asks for the new one', async () => {
    const v1 = textSkill('alpha', skillMd('alpha', 'First'));
    const m1 = await messagesFor([v1], choices(['agents']));
    send(m1.sync);
    send(m1.puts[0]);
    const v2 = textSkill('alpha', skillMd('alpha', 'Changed'), { approvedAt: v1.approvedAt + 1000 });
    const m2 = await messagesFor([v2], choices(['agents']));
    expect(send(m2.sync)).toMatchObject({ missing: [{ url: v2.url }], agents: [{ state: 'removed', folder: 'alpha' }] });
    expect(existsSync(join(t.home, '.agents', 'skills', 'alpha'))).toBe(false);
    send(m2.puts[0]);
    expect(readFileSync(join(t.home, '.agents', 'skills', 'alpha', 'SKILL.md'), 'utf8')).toContain('Changed');
  });

  it('never writes over a folder it did not write: name-taken, and nothing written', async () => {
    mkdirSync(join(claude(), 'alpha'), { recursive: true });
    writeFileSync(join(claude(), 'alpha', 'SKILL.md'), 'the user’s own');
    const skill = textSkill('alpha', skillMd('alpha', 'Web'));
    const { sync, puts } = await messagesFor([skill], choices(['claude-code']));
    send(sync);
    expect(send(puts[0])).toMatchObject({ agents: [{ state: 'name-taken', folder: 'alpha' }] });
    expect(readdirSync(claude())).toEqual(['alpha']);
    expect(readFileSync(join(claude(), 'alpha', 'SKILL.md'), 'utf8')).toBe('the user’s own');
    // Leaving the mirror does not touch it either.
    send({ type: 'sync', id: 50, skills: [] });
    expect(readFileSync(join(claude(), 'alpha', 'SKILL.md'), 'utf8')).toBe('the user’s own');
  });

  it("a provenance file without its file list is not Skillpin's: the folder stays and the sync answers", async () => {
    // Any program can write into an agent's skills folder: a .skillpin.json naming this browser's
    // partition, but without the digests a copy's provenance lists, marks no copy of Skillpin's.
    const skill = textSkill('alpha', skillMd('alpha', 'Web'));
    const { sync, puts } = await messagesFor([skill], choices(['claude-code']));
    send(sync);
    send(puts[0]);
    const written = JSON.parse(readFileSync(join(claude(), 'alpha', PROVENANCE_FILE), 'utf8')) as Record<string, unknown>;
    mkdirSync(join(claude(), 'other'), { recursive: true });
    writeFileSync(join(claude(), 'other', 'SKILL.md'), 'the user’s own');
    writeFileSync(join(claude(), 'other', PROVENANCE_FILE), JSON.stringify({ ...written, key: 'not-a-record', digests: undefined }));
    expect(send({ type: 'sync', id: 51, skills: [] })).toMatchObject({ type: 'synced' });
    expect(readFileSync(join(claude(), 'other', 'SKILL.md'), 'utf8')).toBe('the user’s own');
    expect(readdirSync(claude())).toEqual(['other']);
  });

  it('two origins with one skill name: the second gets its host added to the folder name', async () => {
    const a = textSkill('alpha', skillMd('alpha', 'From A'), { origin: 'https://a.example', url: 'https://a.example/alpha/SKILL.md' });
    const b = textSkill('alpha', skillMd('alpha', 'From B'), { origin: 'https://b.example:8443', url: 'https://b.example:8443/alpha/SKILL.md' });
    const { sync, puts } = await messagesFor([a, b], choices(['claude-code']));
    send(sync);
    expect(send(puts[0])).toMatchObject({ agents: [{ state: 'written', folder: 'alpha' }] });
    expect(send(puts[1])).toMatchObject({ agents: [{ state: 'written', folder: 'alpha-b-example-8443' }] });
    expect(readFileSync(join(claude(), 'alpha-b-example-8443', 'SKILL.md'), 'utf8')).toContain('From B');
  });

  it('a skill that grants tools is written only with the confirmation for that agent and that content', async () => {
    const text = skillMd('tooling', 'Uses tools', 'allowed-tools: Bash(git:*) Read\n');
    const skill = textSkill('tooling', text);
    const none = await messagesFor(
      [skill],
      choices(['claude-code', 'gemini-cli'], (_u, agent) => agent === 'gemini-cli'),
    );
    send(none.sync);
    const reply = send(none.puts[0]);
    expect(reply).toMatchObject({
      agents: [
        { agent: 'claude-code', state: 'needs-confirmation' },
        { agent: 'gemini-cli', state: 'written' },
      ],
    });
    expect(existsSync(join(claude(), 'tooling'))).toBe(false);
    // A confirmation of another revision does not count.
    const put = none.puts[0] as { agents: { agent: string; confirmedRevision: string | null }[] };
    const forged = { ...put, id: 77, agents: [{ agent: 'claude-code', confirmedRevision: 'f'.repeat(64) }] };
    expect(send(forged)).toMatchObject({ agents: expect.arrayContaining([expect.objectContaining({ agent: 'claude-code', state: 'needs-confirmation' })]) });
    expect(existsSync(join(claude(), 'tooling'))).toBe(false);
  });

  it('a skill with scripts needs the confirmation too', async () => {
    const skill = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'));
    skill.files.push({ path: 'scripts/run.sh', bytes: new TextEncoder().encode('echo hi\n') });
    const { sync, puts } = await messagesFor([skill], choices(['claude-code']));
    send(sync);
    expect(send(puts[0])).toMatchObject({ agents: [{ state: 'needs-confirmation' }] });
    const ok = await messagesFor(
      [skill],
      choices(['claude-code'], () => true),
    );
    expect(send(ok.puts[0])).toMatchObject({ agents: [{ state: 'written' }] });
  });

  it('files the user changed in a copy stay when the skill leaves; the rest goes', async () => {
    const skill = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'));
    const { sync, puts } = await messagesFor([skill], choices(['claude-code']));
    send(sync);
    send(puts[0]);
    writeFileSync(join(claude(), 'code-review', 'NOTES.md'), 'mine');
    const reply = send({ type: 'sync', id: 60, skills: [] });
    expect(reply).toMatchObject({ agents: [{ state: 'copy-modified' }] });
    expect(tree(join(claude(), 'code-review'))).toEqual({ 'NOTES.md': Buffer.from('mine').toString('base64') });
  });

  it('a put whose bytes do not match their digest is refused and changes nothing', async () => {
    const skill = textSkill('alpha', skillMd('alpha', 'First'));
    const { sync, puts } = await messagesFor([skill], choices(['claude-code']));
    send(sync);
    const put = JSON.parse(JSON.stringify(puts[0]));
    put.skill.files[0].data = Buffer.from(skillMd('alpha', 'Fiddled')).toString('base64').slice(0, put.skill.files[0].data.length);
    put.skill.files[0].size = Buffer.from(put.skill.files[0].data, 'base64').length;
    const reply = send(put);
    expect(reply).toMatchObject({ type: 'error', code: 'digest-mismatch' });
    expect(new Mirror(mirrorDir(ctx().places)).records()).toEqual([]);
    expect(existsSync(claude())).toBe(false);
  });

  it('a put whose revision does not cover its facts is refused', async () => {
    const skill = textSkill('alpha', skillMd('alpha', 'First'));
    const { puts } = await messagesFor([skill]);
    const put = JSON.parse(JSON.stringify(puts[0]));
    put.skill.approvedAt += 1;
    expect(send(put)).toMatchObject({ type: 'error', code: 'revision-mismatch' });
    expect(new Mirror(mirrorDir(ctx().places)).records()).toEqual([]);
  });

  it('one browser’s sync leaves another browser’s skills alone', async () => {
    const skill = textSkill('alpha', skillMd('alpha', 'First'));
    const m = await messagesFor([skill]);
    send(m.sync);
    send(m.puts[0]);
    const firefox = { ...ctx(), caller: 'skillpin@skillpin.dev' };
    const reply = answer(Buffer.from(JSON.stringify({ type: 'sync', id: 3, skills: [] })), firefox);
    expect(reply).toMatchObject({ type: 'synced', removed: [] });
    expect(new Mirror(mirrorDir(ctx().places)).records().length).toBe(1);
  });

  it('status lists what the host holds; hello names the agent folders and the agents found', async () => {
    const skill = textSkill('alpha', skillMd('alpha', 'First'));
    const m = await messagesFor([skill], choices(['claude-code']));
    send(m.sync);
    send(m.puts[0]);
    expect(send({ type: 'status', id: 4 })).toMatchObject({ type: 'status', truncated: false, skills: [{ name: 'alpha', agents: [{ agent: 'claude-code', folder: 'alpha' }] }] });
    const hello = send({ type: 'hello', id: 5, protocol: 1 });
    expect(hello).toMatchObject({ type: 'hello', held: 1, protocol: 1 });
    expect((hello as { agents: { agent: string; present: boolean }[] }).agents.map((a) => [a.agent, a.present])).toEqual([
      ['claude-code', true],
      ['agents', false],
      ['gemini-cli', false],
    ]);
    // The agents found: those whose own folder is in the home (Claude Code's, made by the copy, and OpenCode's).
    expect((hello as { found: string[] }).found).toEqual(['claude-code']);
    mkdirSync(join(t.home, '.config', 'opencode'), { recursive: true });
    expect((send({ type: 'hello', id: 6, protocol: 1 }) as { found: string[] }).found).toEqual(['claude-code', 'opencode']);
  });

  it('a caller the host was not installed for gets an error and nothing is created', async () => {
    const m = await messagesFor([textSkill('alpha', skillMd('alpha', 'First'))]);
    const reply = answer(Buffer.from(JSON.stringify(m.sync)), { ...ctx(), allowed: false });
    expect(reply).toMatchObject({ type: 'error', code: 'caller-not-allowed' });
    expect(existsSync(t.dataDir)).toBe(false);
  });
});
