// The desktop program's faults, through the real program: bin/skillpin spawned
// as a browser starts it, over real folders under a temporary home. A crash between writing an
// agent copy and recording it, six hosts writing at once, uninstall-host while a host runs, and
// two browser profiles of one extension.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHROME_CALLER, CHROME_ID, choices, messagesFor, SKILLPIN_BIN, skillMd, type TempPlaces, tempPlaces, textSkill } from '../../support/desktop';
import { startHost } from '../../support/host-process';

let t: TempPlaces;
let env: Record<string, string>;
const PROFILE_A = 'a'.repeat(32);
const PROFILE_B = 'b'.repeat(32);
const claude = () => join(t.home, '.claude', 'skills');
const run = (args: string[], extra: Record<string, string> = {}) => execFileSync(process.execPath, [SKILLPIN_BIN, ...args], { env: { ...process.env, ...env, ...extra } }).toString();

beforeAll(() => {
  // Build the bundle once, before any test starts several processes at a time.
  execFileSync(process.execPath, [SKILLPIN_BIN, '--help'], { stdio: 'ignore' });
});
beforeEach(() => {
  t = tempPlaces();
  env = { SKILLPIN_HOME: t.home, SKILLPIN_DATA_DIR: t.dataDir };
  run(['install-host', '--chrome-id', CHROME_ID]);
});
afterEach(() => t.cleanup());

const withProfile = <T extends object>(m: T, profile: string | null): T => (profile === null ? m : { ...m, profile });

/** One host: sync naming `skills`, then a put of each missing one; answers every reply. */
async function syncAll(skills: ReturnType<typeof textSkill>[], profile: string | null, extra: Record<string, string> = {}) {
  const { sync, puts } = await messagesFor(skills, choices(['claude-code']));
  const host = startHost([CHROME_CALLER], { ...env, ...extra });
  host.send(withProfile(sync, profile));
  const replies = [await host.next()];
  for (const put of puts) {
    host.send(withProfile(put, profile));
    replies.push(await host.next());
  }
  await host.close();
  return replies;
}

describe('a crash never leaves an agent copy behind', () => {
  it('a host killed right after writing a copy: uninstall-host removes the copy', async () => {
    const alpha = textSkill('alpha', skillMd('alpha', 'A'));
    const { sync, puts } = await messagesFor([alpha], choices(['claude-code']));
    const host = startHost([CHROME_CALLER], { ...env, SKILLPIN_TEST_CRASH: 'after-copy-write' });
    host.send(sync);
    await host.next();
    host.send(puts[0]);
    await host.close();
    expect(host.child.signalCode).toBe('SIGKILL');
    expect(existsSync(join(claude(), 'alpha', 'SKILL.md'))).toBe(true);
    run(['uninstall-host']);
    expect(readdirSync(claude())).toEqual([]);
    expect(existsSync(t.dataDir)).toBe(false);
  });

  it('a copy whose provenance names this browser’s partition but that no record lists is removed by the next sync (a withdrawal)', async () => {
    const alpha = textSkill('alpha', skillMd('alpha', 'A'));
    await syncAll([alpha], null);
    // What a host killed between writing and recording left: the same copy under a name no record lists.
    cpSync(join(claude(), 'alpha'), join(claude(), 'alpha-orphan'), { recursive: true });
    const [synced] = await syncAll([], null);
    expect(synced).toMatchObject({ type: 'synced', removed: [{ url: alpha.url }] });
    expect(readdirSync(claude())).toEqual([]);
  });
});

describe('the mirror lock holds', () => {
  it('six host processes syncing and putting at once never hold the lock together, and every skill lands', async () => {
    const log = join(t.root, 'lock.log');
    const skills = ['one', 'two', 'three', 'four', 'five', 'six'].map((n) => textSkill(n, skillMd(n, n.toUpperCase())));
    const messages = await Promise.all(skills.map((s) => messagesFor([s], choices(['claude-code']))));
    // Six profiles of one extension, so each sync names only its own skill and removes none of the others'.
    const profiles = skills.map((_, i) => String(i + 1).repeat(32));
    const hosts = skills.map(() => startHost([CHROME_CALLER], { ...env, SKILLPIN_TEST_LOCK_LOG: log }));
    const replies = await Promise.all(
      hosts.map(async (h, i) => {
        const m = messages[i] as Awaited<ReturnType<typeof messagesFor>>;
        h.send({ ...m.sync, profile: profiles[i] });
        const synced = await h.next();
        h.send({ ...m.puts[0], profile: profiles[i] });
        return [synced, await h.next()];
      }),
    );
    await Promise.all(hosts.map((h) => h.close()));
    expect(replies.map(([synced, stored]) => [synced?.type, stored?.type])).toEqual(skills.map(() => ['synced', 'stored']));
    const events = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .map(([what, pid, at]) => ({ what, pid, at: BigInt(at as string) }))
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    expect(events.length).toBe(24);
    // Strictly alternating enter/leave of the same process: no two holds overlap.
    for (let i = 0; i < events.length; i += 2) {
      expect(events[i]?.what).toBe('enter');
      expect(events[i + 1]).toMatchObject({ what: 'leave', pid: events[i]?.pid });
    }
    expect(readdirSync(claude()).sort()).toEqual(['five', 'four', 'one', 'six', 'three', 'two']);
    expect(readdirSync(join(t.dataDir, 'mirror')).filter((n) => n.startsWith('.lock'))).toEqual([]);
  });

  it('a lock left by a process that is gone is taken over, and no lock file stays', async () => {
    mkdirSync(join(t.dataDir, 'mirror'), { recursive: true });
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    writeFileSync(join(t.dataDir, 'mirror', '.lock'), `${dead} 0123456789abcdef`);
    const [synced] = await syncAll([textSkill('alpha', skillMd('alpha', 'A'))], null);
    expect(synced).toMatchObject({ type: 'synced' });
    expect(readdirSync(join(t.dataDir, 'mirror')).filter((n) => n.startsWith('.lock'))).toEqual([]);
  });
});

describe('uninstall-host while a host runs', () => {
  it('the running host finds its installation gone and writes nothing; nothing is left behind', async () => {
    const alpha = textSkill('alpha', skillMd('alpha', 'A'));
    const { sync, puts } = await messagesFor([alpha], choices(['claude-code']));
    const host = startHost([CHROME_CALLER], env);
    host.send({ type: 'hello', id: 100, protocol: 1 });
    await host.next();
    run(['uninstall-host']);
    host.send(sync);
    expect(await host.next()).toMatchObject({ type: 'error', code: 'not-installed' });
    host.send(puts[0]);
    expect(await host.next()).toMatchObject({ type: 'error', code: 'not-installed' });
    await host.close();
    expect(existsSync(t.dataDir)).toBe(false);
    expect(existsSync(join(claude(), 'alpha'))).toBe(false);
  });
});

describe('each browser profile keeps its own skills', () => {
  it('two profiles of one extension: a sync of one never removes the other’s skills', async () => {
    const alpha = textSkill('alpha', skillMd('alpha', 'A'));
    const beta = textSkill('beta', skillMd('beta', 'B'));
    await syncAll([alpha], PROFILE_A);
    await syncAll([beta], PROFILE_B);
    expect(readdirSync(claude()).sort()).toEqual(['alpha', 'beta']);
    const [again] = await syncAll([alpha], PROFILE_A);
    expect(again).toMatchObject({ type: 'synced', removed: [], missing: [] });
    expect(readdirSync(claude()).sort()).toEqual(['alpha', 'beta']);
    const [emptied] = await syncAll([], PROFILE_B);
    expect(emptied).toMatchObject({ removed: [{ url: beta.url }] });
    expect(readdirSync(claude())).toEqual(['alpha']);
  });

  it('a mirror written without a profile id is adopted by the first profile that syncs; the next profile starts empty', async () => {
    const alpha = textSkill('alpha', skillMd('alpha', 'A'));
    await syncAll([alpha], null);
    const [adopted] = await syncAll([alpha], PROFILE_A);
    expect(adopted).toMatchObject({ type: 'synced', missing: [], removed: [] });
    expect(readdirSync(claude())).toEqual(['alpha']);
    const [other] = await syncAll([], PROFILE_B);
    expect(other).toMatchObject({ removed: [] });
    expect(readdirSync(claude())).toEqual(['alpha']);
    // The adopting profile owns the copy: leaving it out removes it.
    const [left] = await syncAll([], PROFILE_A);
    expect(left).toMatchObject({ removed: [{ url: alpha.url }] });
    expect(readdirSync(claude())).toEqual([]);
  });
});
