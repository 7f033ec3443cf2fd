// Reading an organisation's policy object (lib/store/policy.ts): what each field sets, what is
// dropped and reported, and how the managed values overlay the user's settings.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { effectiveSettings, managedConflicts, managedFields, parseManaged, POLICY_FIELDS, withoutManaged } from '../../../lib/store/policy';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/types';
import { fingerprint } from '../../../lib/verify/fingerprint';
import { keyPair } from '../../support/signed-sites';

const K = keyPair(61);

describe('parseManaged', () => {
  it('no policy (undefined, null or {}) sets nothing', () => {
    for (const raw of [undefined, null, {}]) {
      const p = parseManaged(raw);
      expect(p).toEqual({ settings: {}, requireSigned: false, pinnedKeys: [], invalid: [] });
      expect(managedFields(p)).toEqual([]);
    }
  });

  it('maps every policy to the setting it locks', () => {
    const p = parseManaged({
      probing: false,
      probeInPrivate: true,
      allowList: ['https://docs.example', '*.corp.example'],
      denyList: ['bank.example'],
      allowListOnly: true,
      chatSites: ['https://chat.corp.example/'],
      requireSignedSkills: true,
      pinnedKeys: { 'https://docs.example': K.b64 },
    });
    expect(p.settings).toEqual({
      paused: true,
      probeInPrivate: true,
      allowListOnly: true,
      allowList: ['https://docs.example', '*.corp.example'],
      denyList: ['bank.example'],
      chatSites: ['https://chat.corp.example'],
    });
    expect(p.requireSigned).toBe(true);
    expect(p.pinnedKeys).toEqual([{ origin: 'https://docs.example', key: K.b64, fingerprint: fingerprint(K.publicKey) }]);
    expect(p.invalid).toEqual([]);
    expect(parseManaged({ probing: true }).settings).toEqual({ paused: false });
  });

  it('drops a wrongly typed field and reports it; the other fields still apply', () => {
    const p = parseManaged({ probing: 'no', allowListOnly: 1, denyList: 'bank.example', requireSignedSkills: 'yes', allowList: ['https://ok.example'] });
    expect(p.settings).toEqual({ allowList: ['https://ok.example'] });
    expect(p.requireSigned).toBe(false);
    expect(p.invalid).toEqual(['probing: not true or false', 'allowListOnly: not true or false', 'denyList: not a list', 'requireSignedSkills: not true or false']);
  });

  it('a bad list entry drops that entry only: a locked deny list with a typo still denies the rest', () => {
    const p = parseManaged({ denyList: ['https://bank.example', 'ftp://x.example', 7, '', 'https://bank.example'], chatSites: ['https://chat.example/path', 'https://ok.example'] });
    expect(p.settings.denyList).toEqual(['https://bank.example']);
    expect(p.settings.chatSites).toEqual(['https://ok.example']);
    expect(p.invalid).toHaveLength(4);
    expect(p.invalid[0]).toMatch(/^denyList\[1\]: "ftp:\/\/x\.example" is not usable$/);
    expect(p.invalid[3]).toMatch(/^chatSites\[0\]/);
  });

  it('pinned keys: the origin is normalised; a bad origin or key is reported and not pinned', () => {
    const p = parseManaged({
      pinnedKeys: {
        'HTTPS://Docs.Example:443/': ` ${K.b64}\n`,
        'https://docs.example/path': K.b64,
        'not a url': K.b64,
        'https://short.example': 'AAAA',
        'https://num.example': 5,
      },
    });
    expect(p.pinnedKeys).toEqual([{ origin: 'https://docs.example', key: K.b64, fingerprint: fingerprint(K.publicKey) }]);
    expect(p.invalid).toHaveLength(4);
    expect(p.invalid.join('\n')).toMatch(/short\.example.*32 bytes/);
    expect(parseManaged({ pinnedKeys: [K.b64] }).invalid).toEqual(['pinnedKeys: not an object of origin → base64 key']);
  });

  it('a policy that is not an object, and unknown names, are reported', () => {
    expect(parseManaged('probing').invalid).toEqual(['policy: not an object']);
    expect(parseManaged({ paused: true }).invalid).toEqual(['paused: not a Skillpin policy (ignored)']);
    expect(parseManaged({ paused: true }).settings).toEqual({});
  });
});

describe('managed values over the user settings', () => {
  const user: Settings = { ...DEFAULT_SETTINGS, denyList: ['https://mine.example'], chatSites: ['http://127.0.0.1:3000'], legacyIndex: false };
  const policy = parseManaged({ denyList: ['https://bank.example'], probing: false });

  it('effective settings: the managed fields win, the others are the user’s; neither input changes', () => {
    const before = structuredClone(user);
    const eff = effectiveSettings(user, policy);
    expect(eff).toEqual({ ...user, denyList: ['https://bank.example'], paused: true });
    eff.denyList.push('x');
    expect(user).toEqual(before);
    expect(policy.settings.denyList).toEqual(['https://bank.example']);
  });

  it('a change conflicts only when it gives a managed field another value than the policy’s', () => {
    expect(managedConflicts({ denyList: [] }, policy)).toEqual(['denyList']);
    expect(managedConflicts({ paused: false, legacyIndex: true }, policy)).toEqual(['paused']);
    expect(managedConflicts({ denyList: ['https://bank.example'], paused: true, legacyIndex: true }, policy)).toEqual([]);
    expect(withoutManaged({ denyList: ['https://bank.example'], paused: true, legacyIndex: true }, policy)).toEqual({ legacyIndex: true });
  });
});

describe('the Chrome managed-storage schema', () => {
  it('declares exactly the policies the reader understands, with their types', () => {
    const schema = JSON.parse(readFileSync(join(__dirname, '../../../public/managed_schema.json'), 'utf8')) as { type: string; properties: Record<string, { type: string }> };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties).sort()).toEqual([...POLICY_FIELDS].sort());
    const types = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.type]));
    expect(types).toEqual({
      probing: 'boolean',
      probeInPrivate: 'boolean',
      allowList: 'array',
      denyList: 'array',
      allowListOnly: 'boolean',
      chatSites: 'array',
      requireSignedSkills: 'boolean',
      pinnedKeys: 'object',
    });
  });
});
