// The corpus publishers' ed25519 signatures, checked the way the product does:
// base64 key and signature from the index, message = lf-normalized SKILL.md bytes.
import { describe, expect, it } from 'vitest';
import { lfNormalize } from '../../../lib/verify/digest';
import { verifySignatureB64, verifyWithNoble, verifyWithWebCrypto } from '../../../lib/verify/ed25519';
import { decodeBase64Strict } from '../../../lib/verify/base64';
import { corpusBytes, corpusJson } from './corpus';

interface Index {
  signing_alg?: string;
  signing_key: string;
  skills: Array<{ name: string; url: string; signature: string }>;
}

const LTS = 'llms-txt-skills';

function index(rel: string): Index {
  return corpusJson(rel) as Index;
}

async function check(keyB64: string, sigB64: string, message: Uint8Array): Promise<boolean> {
  const r = await verifySignatureB64(keyB64, sigB64, message);
  // Both backends must agree with the combined function.
  const key = decodeBase64Strict(keyB64) as Uint8Array;
  const sig = decodeBase64Strict(sigB64) as Uint8Array;
  expect(verifyWithNoble(key, sig, message)).toBe(r.ok);
  expect(await verifyWithWebCrypto(key, sig, message)).toBe(r.ok);
  return r.ok;
}

describe('corpus signatures', () => {
  it('origin A: every index signature verifies over its lf-normalized SKILL.md', async () => {
    const idx = index(`${LTS}/.well-known/agent-skills/index.json`);
    expect(idx.signing_alg).toBe('ed25519');
    const pub = new TextDecoder().decode(corpusBytes(`${LTS}/.well-known/agent-skills/signing-key.pub`));
    expect(pub.trim()).toBe(idx.signing_key);
    expect(idx.skills.length).toBe(2);
    for (const s of idx.skills) {
      const bytes = corpusBytes(LTS + s.url);
      expect(await check(idx.signing_key, s.signature, lfNormalize(bytes)), s.name).toBe(true);
      // The .pub form (with its trailing LF) parses to the same key.
      expect((await verifySignatureB64(pub, s.signature, lfNormalize(bytes))).ok, s.name).toBe(true);
    }
  });

  it('origin B (docs, gen B) and the gen A variant verify under RMM5…', async () => {
    for (const root of [`${LTS}/docs`, `${LTS}/_variants/docs-genA`]) {
      const idx = index(`${root}/.well-known/agent-skills/index.json`);
      expect(idx.signing_key).toBe('RMM5VHIl8m8TL3FUY7LMb++o2uye6CiJLCA/XbSp3l8=');
      for (const s of idx.skills) {
        const bytes = corpusBytes(root + s.url);
        expect(await check(idx.signing_key, s.signature, lfNormalize(bytes)), `${root} ${s.name}`).toBe(true);
      }
    }
  });

  it('crlf-served: verifies over the lf-normalized bytes, not over the raw CRLF bytes', async () => {
    const idx = index(`${LTS}/_synthetic/crlf-served/.well-known/agent-skills/index.json`);
    const entry = idx.skills.find((s) => s.name === 'placeholder');
    expect(entry).toBeDefined();
    const raw = corpusBytes(`${LTS}/_synthetic/crlf-served/skills/placeholder/SKILL.md`);
    expect(raw.includes(0x0d)).toBe(true);
    expect(await check(idx.signing_key, entry!.signature, lfNormalize(raw))).toBe(true);
    expect(await check(idx.signing_key, entry!.signature, raw)).toBe(false);
  });

  it('bom-prefixed and tampered-same-key: the placeholder signature fails', async () => {
    for (const c of ['bom-prefixed', 'tampered-same-key']) {
      const idx = index(`${LTS}/_synthetic/${c}/.well-known/agent-skills/index.json`);
      const entry = idx.skills.find((s) => s.name === 'placeholder');
      expect(entry, c).toBeDefined();
      const raw = corpusBytes(`${LTS}/_synthetic/${c}/skills/placeholder/SKILL.md`);
      expect(await check(idx.signing_key, entry!.signature, lfNormalize(raw)), c).toBe(false);
      // The untouched api-client still verifies in the same site.
      const api = idx.skills.find((s) => s.name === 'api-client');
      const apiBytes = corpusBytes(`${LTS}/_synthetic/${c}/skills/api-client/SKILL.md`);
      expect(await check(idx.signing_key, api!.signature, lfNormalize(apiBytes)), c).toBe(true);
    }
  });

  it('key-rotated-attacker: api-client verifies under the new key 4NCA… only', async () => {
    const idx = index(`${LTS}/_synthetic/key-rotated-attacker/.well-known/agent-skills/index.json`);
    expect(idx.signing_key).toBe('4NCAqA5Z5fxSiQAO/QZw0LbrAmBPLKfruL874xG5fYg=');
    const api = idx.skills.find((s) => s.name === 'api-client');
    const bytes = lfNormalize(corpusBytes(`${LTS}/_synthetic/key-rotated-attacker/skills/api-client/SKILL.md`));
    expect(await check(idx.signing_key, api!.signature, bytes)).toBe(true);
    expect(await check('1e1Qc4KtZ1PiR8McDESrvmxZVCYqdsrQOiKSFgKjJNc=', api!.signature, bytes)).toBe(false);
  });

  it('gen A signatures do not verify over gen B bytes of the changed skills', async () => {
    const genA = index(`${LTS}/_variants/docs-genA/.well-known/agent-skills/index.json`);
    let failures = 0;
    for (const s of genA.skills) {
      const genBBytes = lfNormalize(corpusBytes(`${LTS}/docs${s.url}`));
      const ok = await check(genA.signing_key, s.signature, genBBytes);
      if (s.name === 'validate_skill_line') expect(ok).toBe(true);
      else {
        expect(ok, s.name).toBe(false);
        failures++;
      }
    }
    expect(failures).toBe(3);
  });
});
