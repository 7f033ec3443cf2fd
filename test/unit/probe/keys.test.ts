// FORMATS.md §5 key-state table, row by row, through the whole engine (loopback server,
// real IndexedDB store under fake-indexeddb), plus the pure decision for the signing fields.
import { describe, expect, it } from 'vitest';
import { decideKey, type KeyFacts } from '../../../lib/probe/keys';
import type { Diagnostic, OriginReport } from '../../../lib/types';
import type { ParsedIndex } from '../../../lib/parse/index-json';
import type { TestServer } from '../../support/server';
import { serversClosedAfterEach } from '../../support/test-servers';
import { harness } from '../../support/engine-harness';
import { buildSite, keyPair, type SiteDef } from '../../support/signed-sites';

const K1 = keyPair(1);
const K2 = keyPair(2);
const startTestServer = serversClosedAfterEach();

async function site(def: SiteDef): Promise<TestServer> {
  const s = await startTestServer({ files: buildSite(def) });
  return s;
}

const TWO = [{ name: 'alpha' }, { name: 'beta' }];

describe('key table: origin not pinned', () => {
  it('usable signing_key: pinned silently, skills verified-signed', async () => {
    const s = await site({ skills: TWO, key: K1 });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.key.state).toBe('pinned-now');
    expect(r.skills.map((k) => k.status)).toEqual(['verified-signed', 'verified-signed']);
    const pin = await h.store.getPin(s.origin);
    expect(pin?.key).toBe(K1.b64);
    expect(pin?.fingerprint).toBe(r.key.offered?.fingerprint);
  });

  it('.pub alone (no signing_key in the index) is a usable key', async () => {
    const s = await site({ skills: TWO, key: K1, signingKey: null });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.key).toMatchObject({ state: 'pinned-now', offered: { source: 'signing-key.pub' } });
    expect(r.skills.every((k) => k.status === 'verified-signed')).toBe(true);
  });

  it('signing_key and .pub differ: key-changed, nothing pinned', async () => {
    const s = await site({ skills: TWO, key: K1, pub: K2.b64 + '\n' });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.key.state).toBe('conflict');
    expect(r.key.conflicting?.key).toBe(K2.b64);
    expect(r.skills.every((k) => k.status === 'key-changed' && k.statusCode === 'key-conflict')).toBe(true);
    expect(await h.store.getPin(s.origin)).toBeNull();
  });

  it('no usable key (no signing fields, no .pub): not signing, signatures ignored with a warning', async () => {
    const s = await site({ skills: [{ name: 'alpha', signature: 'AAAA' }], key: null });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.key.state).toBe('none');
    expect(r.skills[0]?.status).toBe('verified');
    expect(r.diagnostics.some((d) => d.code === 'signatures-ignored')).toBe(true);
    // The index carries a signature, so signing-key.pub was asked for.
    expect(s.log.some((l) => l.path === '/.well-known/agent-skills/signing-key.pub')).toBe(true);
  });

  it('unknown signing_alg: not signing, with a warning, nothing pinned', async () => {
    const s = await site({ skills: TWO, key: K1, signingAlg: 'rsa' });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.key.state).toBe('none');
    expect(r.skills.every((k) => k.status === 'verified')).toBe(true);
    expect(r.diagnostics.some((d) => d.code === 'signing-alg-unknown')).toBe(true);
    expect(await h.store.getPin(s.origin)).toBeNull();
  });

  it('a malformed signing_key is never pinned, and signed entries are bad-signature', async () => {
    const s = await site({ skills: TWO, key: K1, signingKey: 'not base64!!', pub: null });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(await h.store.getPin(s.origin)).toBeNull();
    expect(r.skills.every((k) => k.status === 'bad-signature' && k.statusCode === 'signing-key-malformed')).toBe(true);
    expect(r.diagnostics.some((d) => d.code === 'signing-key-malformed')).toBe(true);
  });

  it('a 31-byte key is malformed too', async () => {
    const short = Buffer.from(K1.publicKey.slice(0, 31)).toString('base64');
    const s = await site({ skills: TWO, key: K1, signingKey: short, pub: null });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(await h.store.getPin(s.origin)).toBeNull();
    expect(r.skills[0]?.status).toBe('bad-signature');
  });

  it('entry without signature in a signing index: verified with a warning', async () => {
    const s = await site({ skills: [{ name: 'alpha' }, { name: 'beta', signature: 'none' }], key: K1 });
    const h = await harness();
    const r = await h.probe(s.origin);
    const beta = r.skills.find((k) => k.name === 'beta');
    expect(beta?.status).toBe('verified');
    expect(beta?.statusCode).toBe('verified-unsigned-entry');
    expect(beta?.signature.state).toBe('missing');
  });

  it('signatures that are not base64 of 64 bytes are bad-signature, never a crash', async () => {
    const s = await site({
      skills: [
        { name: 'alpha', signature: '%%%' },
        { name: 'beta', signature: Buffer.alloc(63).toString('base64') },
      ],
      key: K1,
    });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.state).toBe('done');
    expect(r.skills.map((k) => [k.status, k.statusCode])).toEqual([
      ['bad-signature', 'signature-malformed'],
      ['bad-signature', 'signature-malformed'],
    ]);
  });

  it('a signature by another key is bad-signature', async () => {
    const files = buildSite({ skills: TWO, key: K1 });
    const other = buildSite({ skills: TWO, key: K2 });
    const idx = JSON.parse(files['/.well-known/agent-skills/index.json'] as string) as { skills: Array<{ signature: string }> };
    const idx2 = JSON.parse(other['/.well-known/agent-skills/index.json'] as string) as { skills: Array<{ signature: string }> };
    (idx.skills[0] as { signature: string }).signature = (idx2.skills[0] as { signature: string }).signature;
    files['/.well-known/agent-skills/index.json'] = JSON.stringify(idx);
    const s = await startTestServer({ files });
    const h = await harness();
    const r = await h.probe(s.origin);
    expect(r.skills.map((k) => k.status)).toEqual(['bad-signature', 'verified-signed']);
  });
});

describe('key table: origin pinned to K1', () => {
  async function pinned(def: SiteDef): Promise<{ r: OriginReport; s: TestServer; h: Awaited<ReturnType<typeof harness>> }> {
    const s = await site({ skills: TWO, key: K1 });
    const h = await harness();
    const first = await h.probe(s.origin);
    expect(first.key.state).toBe('pinned-now');
    s.options.files = buildSite(def);
    const r = await h.probe(s.origin, { force: true });
    return { r, s, h };
  }

  it('same key: match, verified-signed, lastSeen refreshed', async () => {
    const { r, h, s } = await pinned({ skills: TWO, key: K1 });
    expect(r.key.state).toBe('match');
    expect(r.skills.every((k) => k.status === 'verified-signed')).toBe(true);
    expect((await h.store.getPin(s.origin))?.key).toBe(K1.b64);
  });

  it('different key: signed skills key-changed, pin unchanged', async () => {
    const { r, h, s } = await pinned({ skills: TWO, key: K2 });
    expect(r.key.state).toBe('changed');
    expect(r.key.offered?.key).toBe(K2.b64);
    expect(r.skills.every((k) => k.status === 'key-changed')).toBe(true);
    expect((await h.store.getPin(s.origin))?.key).toBe(K1.b64);
  });

  it('conflicting keys: key-changed', async () => {
    const { r } = await pinned({ skills: TWO, key: K1, pub: K2.b64 });
    expect(r.key.state).toBe('conflict');
    expect(r.skills.every((k) => k.status === 'key-changed')).toBe(true);
  });

  it('no usable key any more: key-changed (stopped signing)', async () => {
    const { r, h, s } = await pinned({ skills: TWO, key: null });
    expect(r.key.state).toBe('stopped-signing');
    expect(r.skills.every((k) => k.status === 'key-changed' && k.statusCode === 'key-stopped-signing')).toBe(true);
    expect((await h.store.getPin(s.origin))?.key).toBe(K1.b64);
  });

  it('index gone but .pub still names the pinned key: match', async () => {
    const { r } = await pinned({ skills: TWO, key: K1, index: false });
    expect(r.key.state).toBe('match');
    // llms.txt alone carries no signatures: digests match, each skill warns that it is unsigned.
    expect(r.skills.map((k) => k.statusCode)).toEqual(['verified-unsigned-entry', 'verified-unsigned-entry']);
  });

  it('key documents transiently unreachable: key-unavailable, not a key change', async () => {
    const s = await site({ skills: TWO, key: K1 });
    const h = await harness();
    await h.probe(s.origin);
    await h.store.deleteCacheForOrigin(s.origin);
    s.options.routes = [
      (req, res, url) => {
        if (!url.pathname.startsWith('/.well-known/')) return false;
        res.writeHead(503);
        res.end();
        return true;
      },
    ];
    const r = await h.probe(s.origin, { force: true });
    expect(r.key.unavailable).toBe(true);
    expect(r.key.pinned?.key).toBe(K1.b64);
    for (const k of r.skills) expect([k.status, k.statusCode]).toEqual(['fetch-failed', 'key-unavailable']);
  });
});

describe('decideKey (pure)', () => {
  const idx = (p: Partial<ParsedIndex>): ParsedIndex => ({ source: 'index', schema: null, shape: 'v0.2', signingAlg: null, signingKey: null, candidates: [], diagnostics: [], ...p });
  const run = (f: Partial<KeyFacts>): { d: ReturnType<typeof decideKey>; diags: Diagnostic[] } => {
    const diags: Diagnostic[] = [];
    const d = decideKey({ index: null, indexUnavailable: false, pub: 'not-fetched', pin: null, ...f }, diags, 'i', 'p');
    return { d, diags };
  };

  it('signing_key without signing_alg: not signing, and the .pub is not used instead', () => {
    const { d, diags } = run({ index: idx({ signingKey: K1.b64 }), pub: { text: K1.b64 } });
    expect(d.decision).toMatchObject({ action: 'report', state: 'none' });
    expect(diags.map((x) => x.code)).toContain('signing-alg-missing');
  });

  it('ed25519 with a key: pin on first sight, compare when pinned', () => {
    expect(run({ index: idx({ signingAlg: 'ed25519', signingKey: K1.b64 }) }).d.decision.action).toBe('pin');
    const pin = { origin: 'o', key: K1.b64, fingerprint: 'f', firstSeen: 0, lastSeen: 0 };
    expect(run({ index: idx({ signingAlg: 'ed25519', signingKey: K1.b64 }), pin }).d.decision.action).toBe('compare');
  });

  it('a malformed .pub is ignored with a warning', () => {
    const { d, diags } = run({ index: idx({ signingAlg: 'ed25519' }), pub: { text: 'xx' } });
    expect(d.decision).toMatchObject({ action: 'report', state: 'none' });
    expect(diags.map((x) => x.code)).toContain('signing-key-pub-malformed');
  });
});
