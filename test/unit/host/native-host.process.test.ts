// The real host process, started the way the browsers start it, fed framed messages: good ones,
// an oversized one, malformed JSON, an unknown type, and a caller it was not installed for.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIREFOX_EXTENSION_ID, MAX_MESSAGE_TO_HOST } from '../../../lib/desktop/protocol/limits';
import { CHROME_CALLER, CHROME_ID, choices, messagesFor, SAMPLE_SKILLS, SKILLPIN_BIN, skillFromFolder, type TempPlaces, tempPlaces } from '../../support/desktop';
import { frameOf, startHost } from '../../support/host-process';

let t: TempPlaces;
let env: Record<string, string>;
beforeAll(() => {
  t = tempPlaces();
  env = { SKILLPIN_HOME: t.home, SKILLPIN_DATA_DIR: t.dataDir };
  execFileSync(process.execPath, [SKILLPIN_BIN, 'install-host', '--chrome-id', CHROME_ID], { env: { ...process.env, ...env } });
});
afterAll(() => t.cleanup());

describe('skillpin native-host, spawned', () => {
  it('round-trips hello, sync and put from an allowed Chrome caller, and the skill lands in the mirror and the agent folder', async () => {
    const host = startHost([CHROME_CALLER], env);
    host.send({ type: 'hello', id: 1, protocol: 1 });
    expect(await host.next()).toMatchObject({ type: 'hello', id: 1, protocol: 1, held: 0 });
    const skill = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'));
    const { sync, puts } = await messagesFor([skill], choices(['agents']));
    host.send(sync);
    expect(await host.next()).toMatchObject({ type: 'synced', id: sync.id, missing: [{ url: skill.url }] });
    host.send(puts[0]);
    expect(await host.next()).toMatchObject({ type: 'stored', agents: [{ state: 'written', folder: 'code-review' }] });
    expect(readFileSync(join(t.home, '.agents/skills/code-review/references/REFERENCE.md'))).toEqual(readFileSync(join(SAMPLE_SKILLS, 'code-review/references/REFERENCE.md')));
    expect(await host.close()).toBe(0);
    expect(host.stderr()).not.toContain('SKILLPIN-NETWORK-ATTEMPT');
  });

  it('answers an oversized message with an error, skips it, and reads the next message', async () => {
    const host = startHost([CHROME_CALLER], env);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(MAX_MESSAGE_TO_HOST + 1, 0);
    host.sendRaw(head);
    // Stream the body in pieces; the host must not buffer it.
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    for (let sent = 0; sent < MAX_MESSAGE_TO_HOST + 1; sent += piece.length) host.sendRaw(piece.subarray(0, Math.min(piece.length, MAX_MESSAGE_TO_HOST + 1 - sent)));
    expect(await host.next()).toMatchObject({ type: 'error', id: null, code: 'message-too-large' });
    host.send({ type: 'status', id: 2 });
    expect(await host.next()).toMatchObject({ type: 'status', id: 2 });
    await host.close();
  });

  it('answers malformed JSON, an unknown type and wrong fields with errors', async () => {
    const host = startHost([CHROME_CALLER], env);
    host.sendRaw(frameOf(Buffer.from('{"type":"sync",')));
    expect(await host.next()).toMatchObject({ type: 'error', code: 'malformed-json' });
    host.send({ type: 'delete-everything', id: 3 });
    expect(await host.next()).toMatchObject({ type: 'error', id: 3, code: 'unknown-type' });
    host.send({ type: 'sync', id: 4, skills: [{ origin: 'file://x', url: 'x', revision: 'a', agents: [] }] });
    expect(await host.next()).toMatchObject({ type: 'error', id: 4, code: 'invalid-message' });
    host.send({ type: 'sync', id: 5, skills: [], extra: true });
    expect(await host.next()).toMatchObject({ type: 'error', id: 5, code: 'invalid-message' });
    await host.close();
    // None of them removed what the first test stored.
    expect(existsSync(join(t.home, '.agents/skills/code-review/SKILL.md'))).toBe(true);
  });

  it('a foreign caller gets an error for every message and nothing changes', async () => {
    const before = readdirSync(join(t.home, '.agents/skills'));
    for (const args of [['chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/'], ['/manifest.json', 'other@addon'], []]) {
      const host = startHost(args, env);
      host.send({ type: 'sync', id: 1, skills: [] });
      expect(await host.next()).toMatchObject({ type: 'error', code: 'caller-not-allowed' });
      await host.close();
    }
    expect(readdirSync(join(t.home, '.agents/skills'))).toEqual(before);
    // Firefox's caller form (manifest path, add-on id) is accepted for Skillpin's add-on id.
    const ff = startHost(['/x/dev.skillpin.mirror.json', FIREFOX_EXTENSION_ID], env);
    ff.send({ type: 'hello', id: 1, protocol: 1 });
    expect(await ff.next()).toMatchObject({ type: 'hello', held: 0 });
    await ff.close();
  });
});
