// Each browser profile's id for the desktop program, made once and kept in the
// profile's storage.local; and the skill-level confirmation the plan sends beside the per-agent ones.
import { describe, expect, it } from 'vitest';
import { DESKTOP_PROFILE_KEY, desktopProfileId } from '../../../lib/background/desktop-profile';
import { choicesOf } from '../../../lib/background/desktop-status';
import { planMirror } from '../../../lib/desktop/outbox';
import { parseHostRequest } from '../../../lib/desktop/protocol/wire';
import { DEFAULT_SETTINGS } from '../../../lib/types';
import { skillMd, textSkill } from '../../support/desktop';

function memory() {
  const data = new Map<string, unknown>();
  return { data, getLocal: async (k: string) => data.get(k) ?? null, setLocal: async (k: string, v: unknown) => void data.set(k, v) };
}

describe('the browser profile’s id', () => {
  it('is made once, kept in storage.local and the same on every later call; another profile gets another', async () => {
    const one = memory();
    const [a, b] = await Promise.all([desktopProfileId(one), desktopProfileId(one)]);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).toBe(a);
    expect(one.data.get(DESKTOP_PROFILE_KEY)).toBe(a);
    expect(await desktopProfileId(one)).toBe(a);
    expect(await desktopProfileId(memory())).not.toBe(a);
  });

  it('the host refuses a profile id that is not 32 hex digits', () => {
    expect(parseHostRequest({ type: 'status', id: 1, profile: 'x' })).toMatchObject({ ok: false, code: 'invalid-message' });
    expect(parseHostRequest({ type: 'status', id: 1, profile: 'a'.repeat(32) })).toMatchObject({ ok: true, value: { profile: 'a'.repeat(32) } });
    expect(parseHostRequest({ type: 'status', id: 1 })).toMatchObject({ ok: true, value: { profile: null } });
  });
});

describe('the skill-level confirmation', () => {
  it('a skill that grants tools carries confirmedRevision on its sync entry and put once it was confirmed; a plain one carries none', async () => {
    const tools = textSkill('tooling', skillMd('tooling', 'T', 'allowed-tools: Bash\n'));
    const plain = textSkill('alpha', skillMd('alpha', 'A'));
    const unconfirmed = await planMirror([tools, plain], choicesOf({ ...DEFAULT_SETTINGS, desktopAgents: ['claude-code'] }));
    expect(unconfirmed.sync.skills.map((s) => s.confirmedRevision)).toEqual([null, null]);
    const revision = unconfirmed.sync.skills[0]?.revision as string;
    const settings = { ...DEFAULT_SETTINGS, desktopAgents: ['claude-code' as const], desktopConfirmed: [{ origin: tools.origin, url: tools.url, agent: 'claude-code' as const, revision }] };
    const confirmed = await planMirror([tools, plain], choicesOf(settings));
    expect(confirmed.sync.skills.map((s) => s.confirmedRevision)).toEqual([revision, null]);
    const put = [...confirmed.skills.values()][0]?.put();
    expect(put?.confirmedRevision).toBe(revision);
    expect(parseHostRequest({ ...put, id: 1 })).toMatchObject({ ok: true, value: { confirmedRevision: revision } });
  });
});
