import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planMirror, putMessage } from '../../../lib/desktop/outbox';
import { parseHostRequest } from '../../../lib/desktop/protocol/wire';
import { choices, SAMPLE_SKILLS, skillFromFolder, skillMd, textSkill } from '../../support/desktop';

describe('the messages the extension sends', () => {
  it('one sync naming every skill by revision, and a put per skill the host checks as valid', async () => {
    const a = textSkill('alpha', skillMd('alpha', 'A'));
    const b = skillFromFolder(join(SAMPLE_SKILLS, 'code-review'));
    const plan = await planMirror([a, b, a], choices(['claude-code']));
    expect(plan.sync.skills.map((s) => s.url)).toEqual([a.url, b.url]);
    expect(plan.sync.skills.every((s) => /^[0-9a-f]{64}$/.test(s.revision))).toBe(true);
    for (const skill of plan.skills.values()) {
      const put = putMessage(skill, 7);
      expect(put.ok).toBe(true);
      if (put.ok) expect(parseHostRequest(put.message)).toMatchObject({ ok: true });
    }
  });

  it('the revision follows every approved fact and file, and nothing else', async () => {
    const a = textSkill('alpha', skillMd('alpha', 'A'));
    const rev = async (s: typeof a) => (await planMirror([s], choices([]))).sync.skills[0]?.revision;
    const base = await rev(a);
    expect(await rev({ ...a })).toBe(base);
    expect(await rev({ ...a, approvedAt: a.approvedAt + 1 })).not.toBe(base);
    expect(await rev({ ...a, keyFingerprint: 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU', verification: 'signed' })).not.toBe(base);
    expect(await rev({ ...a, files: [{ path: 'SKILL.md', bytes: new TextEncoder().encode(skillMd('alpha', 'B')) }] })).not.toBe(base);
  });

  it('a skill that grants tools carries the confirmation only for the agents the user confirmed it for', async () => {
    const tools = textSkill('tooling', skillMd('tooling', 'T', 'allowed-tools: Bash\n'));
    const plan = await planMirror(
      [tools],
      choices(['claude-code', 'agents'], (_url, agent) => agent === 'agents'),
    );
    const entry = plan.sync.skills[0];
    expect(entry?.agents).toEqual([
      { agent: 'claude-code', confirmedRevision: null },
      { agent: 'agents', confirmedRevision: entry?.revision },
    ]);
    // A plain skill carries none: it needs no confirmation.
    const plain = await planMirror(
      [textSkill('alpha', skillMd('alpha', 'A'))],
      choices(['claude-code'], () => true),
    );
    expect(plain.sync.skills[0]?.agents).toEqual([{ agent: 'claude-code', confirmedRevision: null }]);
    // The flag the extension already knows counts too.
    const flagged = await planMirror([textSkill('alpha', skillMd('alpha', 'A'), { hasScripts: true })], choices(['claude-code']));
    expect([...flagged.skills.values()][0]?.needsConfirmation).toBe(true);
  });

  it('refuses a skill whose files cannot be mirrored, and plans the others', async () => {
    const bad = textSkill('bad', skillMd('bad', 'x'));
    bad.files.push({ path: '../escape', bytes: new Uint8Array(1) });
    const plan = await planMirror([bad, textSkill('alpha', skillMd('alpha', 'A'))], choices([]));
    expect(plan.refused).toEqual([{ ref: { origin: bad.origin, url: bad.url }, message: expect.stringContaining('cannot be mirrored') }]);
    expect(plan.sync.skills.length).toBe(1);
  });

  it('refuses a skill carrying version-control metadata, saying why, and the host refuses its put too', async () => {
    const git = textSkill('gitty', skillMd('gitty', 'G'), { type: 'archive', archiveSha256: 'a'.repeat(64) });
    git.files.push({ path: '.git/config', bytes: new TextEncoder().encode('[core]\n\tfsmonitor = touch /tmp/pwned\n') });
    const plan = await planMirror([git], choices(['claude-code']));
    expect(plan.sync.skills).toEqual([]);
    expect(plan.refused[0]?.message).toMatch(/version-control metadata \(\.git\).*never hands it to desktop agents/);
    const parsed = parseHostRequest({
      type: 'put',
      id: 1,
      skill: { ...git, revision: 'b'.repeat(64), files: [{ path: '.git/config', sha256: 'c'.repeat(64), size: 1, data: 'AA==' }], grantsTools: undefined },
      agents: [],
    });
    expect(parsed.ok).toBe(false);
  });
});
