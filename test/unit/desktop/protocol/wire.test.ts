import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIREFOX_EXTENSION_ID, MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, MAX_MESSAGE_TO_HOST, NATIVE_HOST_NAME } from '../../../../lib/desktop/protocol/limits';
import { parseHostReply, parseHostRequest } from '../../../../lib/desktop/protocol/wire';
import { REPO_ROOT, messagesFor, skillMd, textSkill } from '../../../support/desktop';

const hex = 'a'.repeat(64);

async function goodPut() {
  const { puts } = await messagesFor([textSkill('alpha', skillMd('alpha', 'A'))]);
  return JSON.parse(JSON.stringify(puts[0])) as { skill: Record<string, unknown> & { files: Record<string, unknown>[] } } & Record<string, unknown>;
}

describe('the mirror protocol', () => {
  it('names the host and the Firefox add-on as the extension does', () => {
    expect(NATIVE_HOST_NAME).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
    expect(readFileSync(join(REPO_ROOT, 'wxt.config.ts'), 'utf8')).toContain(`id: '${FIREFOX_EXTENSION_ID}'`);
  });

  it('the largest skill, base64 and all, fits one message with room', () => {
    const base64 = Math.ceil(MAX_BYTES_PER_SKILL / 3) * 4;
    expect(base64 + MAX_FILES_PER_SKILL * (1024 + 200) + 4096).toBeLessThan(MAX_MESSAGE_TO_HOST);
    expect(MAX_MESSAGE_TO_HOST).toBeLessThanOrEqual((64 * 1024 * 1024) / 2);
  });

  it('accepts the messages the extension builds', async () => {
    const { sync, puts } = await messagesFor([textSkill('alpha', skillMd('alpha', 'A'))]);
    expect(parseHostRequest(sync)).toMatchObject({ ok: true, value: { type: 'sync' } });
    expect(parseHostRequest(puts[0])).toMatchObject({ ok: true, value: { type: 'put' } });
    expect(parseHostRequest({ type: 'hello', id: 1, protocol: 1 })).toMatchObject({ ok: true });
    expect(parseHostRequest({ type: 'status', id: 0 })).toMatchObject({ ok: true });
  });

  it.each([
    ['not an object', [1], 'invalid-message'],
    ['unknown type', { type: 'wipe', id: 1 }, 'unknown-type'],
    ['no id', { type: 'status' }, 'invalid-message'],
    ['another protocol', { type: 'hello', id: 1, protocol: 2 }, 'unsupported-protocol'],
    ['extra field', { type: 'status', id: 1, more: 1 }, 'invalid-message'],
    ['origin with a path', { type: 'sync', id: 1, skills: [{ origin: 'https://a.example/x', url: 'https://a.example/x', revision: hex, agents: [] }] }, 'invalid-message'],
    ['file: origin', { type: 'sync', id: 1, skills: [{ origin: 'file://', url: 'https://a.example/', revision: hex, agents: [] }] }, 'invalid-message'],
    [
      'unknown agent',
      { type: 'sync', id: 1, skills: [{ origin: 'https://a.example', url: 'https://a.example/', revision: hex, agents: [{ agent: 'vim', confirmedRevision: null }] }] },
      'invalid-message',
    ],
    ['twice the same skill', { type: 'sync', id: 1, skills: [0, 1].map(() => ({ origin: 'https://a.example', url: 'https://a.example/', revision: hex, agents: [] })) }, 'invalid-message'],
  ])('refuses %s', (_name, message, code) => {
    expect(parseHostRequest(message)).toMatchObject({ ok: false, code });
  });

  it.each([
    ['a traversal path', (p: Awaited<ReturnType<typeof goodPut>>) => p.skill.files.push({ path: '../x', sha256: hex, size: 0, data: '' })],
    ['a Windows-reserved name', (p: Awaited<ReturnType<typeof goodPut>>) => p.skill.files.push({ path: 'nul.txt', sha256: hex, size: 0, data: '' })],
    ['its own provenance file', (p: Awaited<ReturnType<typeof goodPut>>) => p.skill.files.push({ path: '.skillpin.json', sha256: hex, size: 0, data: '' })],
    ['two files that differ only by case', (p: Awaited<ReturnType<typeof goodPut>>) => p.skill.files.push({ path: 'skill.md', sha256: hex, size: 0, data: '' })],
    ['data of the wrong length', (p: Awaited<ReturnType<typeof goodPut>>) => ((p.skill.files[0] as Record<string, unknown>).size = 1)],
    ['no SKILL.md', (p: Awaited<ReturnType<typeof goodPut>>) => ((p.skill.files[0] as Record<string, unknown>).path = 'README.md')],
    ['a signed skill without a fingerprint', (p: Awaited<ReturnType<typeof goodPut>>) => (p.skill.verification = 'signed')],
    ['an archive digest on a plain skill', (p: Awaited<ReturnType<typeof goodPut>>) => (p.skill.archiveSha256 = hex)],
    ['a verification the protocol does not name', (p: Awaited<ReturnType<typeof goodPut>>) => (p.skill.verification = 'trusted')],
  ])('refuses a put with %s', async (_name, spoil) => {
    const put = await goodPut();
    spoil(put);
    if (put.skill.files.length > 1) put.skill.type = 'archive';
    if (put.skill.type === 'archive' && put.skill.archiveSha256 === null) put.skill.archiveSha256 = hex;
    expect(parseHostRequest(put)).toMatchObject({ ok: false, code: 'invalid-message' });
  });

  it('takes a skill approved unverified (nothing declared a digest) as unverified, in the put and in the status answer', async () => {
    const { puts } = await messagesFor([textSkill('plain', skillMd('plain', 'P'), { verification: 'unverified' })]);
    expect(parseHostRequest(puts[0])).toMatchObject({ ok: true, value: { skill: { verification: 'unverified' } } });
    const held = { origin: 'https://a.example', url: 'https://a.example/s/SKILL.md', name: 'plain', revision: hex, approvedAt: 1, agents: [] };
    expect(parseHostReply({ type: 'status', id: 1, truncated: false, skills: [{ ...held, verification: 'unverified' }] })).not.toBeNull();
    expect(parseHostReply({ type: 'status', id: 1, truncated: false, skills: [{ ...held, verification: 'trusted' }] })).toBeNull();
    // The agents a program found: a later program's unknown agents are left out, a list of anything else is refused.
    const hello = { type: 'hello', id: 2, protocol: 1, version: '1.2.0', held: 0, agents: [] };
    expect(parseHostReply({ ...hello, found: ['codex', 'zed', 'cursor'] })).toMatchObject({ found: ['codex', 'cursor'] });
    expect(parseHostReply(hello)).toMatchObject({ found: undefined });
    expect(parseHostReply({ ...hello, found: [1] })).toBeNull();
  });

  it('reads only the replies the protocol defines', () => {
    expect(parseHostReply({ type: 'error', id: null, code: 'busy', message: 'x' })).not.toBeNull();
    expect(parseHostReply({ type: 'error', id: 1, code: 'whatever', message: 'x' })).toBeNull();
    expect(parseHostReply({ type: 'synced', id: 1, missing: [], removed: [], agents: [] })).not.toBeNull();
    expect(parseHostReply({ type: 'synced', id: 1, missing: [{ origin: 'x', url: 'y' }], removed: [], agents: [] })).toBeNull();
    expect(parseHostReply({ type: 'status', id: 1, skills: [], truncated: 'no' })).toBeNull();
    expect(parseHostReply('hello')).toBeNull();
  });
});
