import { describe, expect, it } from 'vitest';
import * as ed from '@noble/ed25519';
import type { ReviewerRegistry } from '../../../lib/types';
import { type AttestationEntry, attestationPayload, evaluateAttestations, parseAttestations } from '../../../lib/verify/attestations';
import { encodeBase64 } from '../../../lib/verify/base64';
import { corpusBytes, corpusJson, hex } from './corpus';

const LTS = 'llms-txt-skills';
const MCPWASM = ['demo-site', 'bookstore', 'docs-site'].map((s) => `${LTS}/_external/mcpwasm/${s}/content/attestations.json`);
const AGGREGATOR = `${LTS}/_external/mauricioperera.github.io/.well-known/agent-skills/attestations.json`;
const registry = corpusJson(`${LTS}/_external/mcpwasm/reviewers.from-wrangler-gateway.toml.json`) as ReviewerRegistry;
const IN_WINDOW = new Date('2026-09-01T12:00:00Z');

function entriesOf(rel: string): AttestationEntry[] {
  const r = parseAttestations(corpusBytes(rel));
  if (!r.ok) throw new Error(r.message);
  return r.entries;
}

function siteFacts(): AttestationEntry {
  const e = entriesOf(AGGREGATOR)[0];
  if (e === undefined) throw new Error('no entry');
  return e;
}

const evalSiteFacts = (over: Partial<Parameters<typeof evaluateAttestations>[0]> = {}) =>
  evaluateAttestations({
    entries: [siteFacts()],
    origin: 'https://mauricioperera.github.io',
    skillName: 'site_facts',
    toolSha256: '1d0c9925f6d93cbc137137e656c443b504936afe0001de55181a6f20154523b7',
    registry,
    today: IN_WINDOW,
    ...over,
  });

// A reviewer key of our own (RFC 8032 TEST 2 secret) to sign synthetic entries.
const TEST_SEED = hex('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const TEST_PUB_B64 = encodeBase64(hex('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c'));
const testRegistry: ReviewerRegistry = { 'human:tester': { public_key: TEST_PUB_B64, registered_at: '2025-01-01' } };

async function signed(fields: Omit<AttestationEntry, 'signature' | 'sigstore' | 'attester'> & { attester?: string }): Promise<AttestationEntry> {
  const e = { attester: 'human:tester', ...fields };
  const sig = await ed.signAsync(attestationPayload(e), TEST_SEED);
  return { ...e, signature: encodeBase64(sig), sigstore: false };
}

const BASE = { origin: 'https://example.com', skill: 'tool_x', tool_sha256: 'ab'.repeat(32) };

describe('parseAttestations', () => {
  it('parses the corpus arrays', () => {
    const counts = MCPWASM.map((p) => entriesOf(p).length);
    expect(counts).toEqual([2, 4, 3]);
    expect(entriesOf(AGGREGATOR).length).toBe(1);
    const e = siteFacts();
    expect(e).toMatchObject({ attester: 'human:mauricio-2', signed_on: '2026-07-06', valid_until: '2027-07-06', sigstore: false });
  });

  it('refuses the knowledge-freshness format with its own code', () => {
    const r = parseAttestations(corpusBytes(`${LTS}/docs/knowledge/attestations.json`));
    expect(r).toMatchObject({ ok: false, code: 'attestations-other-format' });
  });

  it('refuses non-arrays, bad JSON and bad UTF-8, never throwing', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(parseAttestations(enc('{"a":1}'))).toMatchObject({ ok: false, code: 'attestations-not-array' });
    expect(parseAttestations(enc('"x"'))).toMatchObject({ ok: false, code: 'attestations-not-array' });
    expect(parseAttestations(enc('null'))).toMatchObject({ ok: false, code: 'attestations-not-array' });
    expect(parseAttestations(enc('[1,'))).toMatchObject({ ok: false, code: 'attestations-json' });
    expect(parseAttestations(enc(''))).toMatchObject({ ok: false, code: 'attestations-json' });
    expect(parseAttestations(new Uint8Array([0x5b, 0xff, 0x5d]))).toMatchObject({ ok: false, code: 'attestations-encoding' });
  });

  it('accepts a BOM and an empty array; skips malformed elements', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('[]')]);
    expect(parseAttestations(withBom)).toEqual({ ok: true, entries: [], skipped: 0 });
    const doc = JSON.stringify([
      1,
      null,
      { origin: 'x' },
      { ...BASE, attester: 'a:b', signed_on: '2026-01-01', valid_until: 5 },
      { ...BASE, attester: 'sigstore:https://id', signed_on: '2026-01-01', valid_until: '2027-01-01', sigstore_bundle: {} },
      { ...BASE, attester: 'human:x', signed_on: '2026-01-01', valid_until: '2027-01-01', signature: 'AAAA', note: 'n' },
    ]);
    const r = parseAttestations(new TextEncoder().encode(doc));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.skipped).toBe(4);
    expect(r.entries.map((e) => [e.attester, e.signature, e.sigstore])).toEqual([
      ['sigstore:https://id', null, true],
      ['human:x', 'AAAA', false],
    ]);
  });
});

describe('evaluateAttestations — corpus', () => {
  it('all 9 mcpwasm entries verify under human:mauricio', async () => {
    let n = 0;
    for (const p of MCPWASM) {
      const entries = entriesOf(p);
      for (const e of entries) {
        expect(e.attester).toBe('human:mauricio');
        const r = await evaluateAttestations({ entries, origin: e.origin, skillName: e.skill, toolSha256: e.tool_sha256, registry, today: IN_WINDOW });
        expect(r, `${e.origin} ${e.skill}`).toMatchObject({ verdict: 'attested', attester: 'human:mauricio', validUntil: '2027-07-02' });
        n++;
      }
    }
    expect(n).toBe(9);
  });

  it('site_facts verifies under human:mauricio-2 inside its window', async () => {
    for (const day of ['2026-07-06T00:00:00Z', '2026-12-31T23:59:59Z', '2027-07-06T23:59:59Z']) {
      expect((await evalSiteFacts({ today: new Date(day) })).verdict, day).toBe('attested');
    }
    const r = await evalSiteFacts();
    expect(r).toMatchObject({ verdict: 'attested', attester: 'human:mauricio-2', validUntil: '2027-07-06', code: 'attestation-attested' });
  });

  it('site_facts is expired after valid_until and ignored before signed_on', async () => {
    expect(await evalSiteFacts({ today: new Date('2027-07-07T00:00:00Z') })).toMatchObject({ verdict: 'expired', validUntil: '2027-07-06' });
    expect((await evalSiteFacts({ today: new Date('2026-07-05T23:59:59Z') })).verdict).toBe('unattested');
  });

  it('a trailing slash on the origin fails', async () => {
    // The probed origin with a slash does not match the entry …
    expect((await evalSiteFacts({ origin: 'https://mauricioperera.github.io/' })).verdict).toBe('unattested');
    // … and an entry rewritten to carry the slash no longer verifies its signature.
    const slashed = { ...siteFacts(), origin: 'https://mauricioperera.github.io/' };
    const r = await evalSiteFacts({ entries: [slashed], origin: 'https://mauricioperera.github.io/' });
    expect(r).toMatchObject({ verdict: 'invalid', attester: 'human:mauricio-2', code: 'attestation-invalid' });
  });

  it('binds the skill name and tool_sha256; prose-only skills cannot be attested', async () => {
    expect((await evalSiteFacts({ skillName: 'other' })).verdict).toBe('unattested');
    expect((await evalSiteFacts({ toolSha256: '00'.repeat(32) })).verdict).toBe('unattested');
    expect((await evalSiteFacts({ toolSha256: '1D0C9925F6D93CBC137137E656C443B504936AFE0001DE55181A6F20154523B7' })).verdict).toBe('attested');
    expect(await evalSiteFacts({ toolSha256: null })).toMatchObject({ verdict: 'unattested', code: 'attestation-prose-only' });
  });

  it('needs a configured registry: unknown attesters do not count', async () => {
    expect((await evalSiteFacts({ registry: {} })).verdict).toBe('unattested');
    const onlyFirst: ReviewerRegistry = { 'human:mauricio': registry['human:mauricio']! };
    expect((await evalSiteFacts({ registry: onlyFirst })).verdict).toBe('unattested');
    // The wrong key under the right name is a failing registered key: invalid.
    const swapped: ReviewerRegistry = { 'human:mauricio-2': registry['human:mauricio']! };
    expect((await evalSiteFacts({ registry: swapped })).verdict).toBe('invalid');
    // A registry entry whose key is unusable does not vouch for anything.
    const broken: ReviewerRegistry = { 'human:mauricio-2': { public_key: 'not base64', registered_at: '2026-07-06' } };
    expect((await evalSiteFacts({ registry: broken })).verdict).toBe('unattested');
  });

  it('a tampered field makes a registered signature invalid', async () => {
    for (const patch of [{ valid_until: '2028-07-06' }, { signed_on: '2026-07-05' }, { tool_sha256: siteFacts().tool_sha256.toUpperCase() }]) {
      const e = { ...siteFacts(), ...patch };
      const r = await evalSiteFacts({ entries: [e] });
      expect(r.verdict, JSON.stringify(patch)).toBe('invalid');
    }
  });
});

describe('evaluateAttestations — rules', () => {
  const args = (entries: AttestationEntry[], today = '2026-06-01') => ({
    entries,
    origin: BASE.origin,
    skillName: BASE.skill,
    toolSha256: BASE.tool_sha256,
    registry: testRegistry,
    today: new Date(today + 'T10:00:00Z'),
  });

  it('precedence: invalid > attested > expired > unattested', async () => {
    const good = await signed({ ...BASE, signed_on: '2026-01-01', valid_until: '2027-01-01' });
    const old = await signed({ ...BASE, signed_on: '2024-01-01', valid_until: '2025-01-01' });
    const bad = { ...(await signed({ ...BASE, signed_on: '2026-01-01', valid_until: '2027-01-01' })), valid_until: '2027-12-31' };
    expect((await evaluateAttestations(args([old]))).verdict).toBe('expired');
    expect((await evaluateAttestations(args([old, good]))).verdict).toBe('attested');
    expect((await evaluateAttestations(args([good, old, bad]))).verdict).toBe('invalid');
    expect((await evaluateAttestations(args([bad, old]))).verdict).toBe('invalid');
    expect((await evaluateAttestations(args([]))).verdict).toBe('unattested');
  });

  it('picks the longest-valid attestation for display', async () => {
    const a = await signed({ ...BASE, signed_on: '2026-01-01', valid_until: '2026-12-01' });
    const b = await signed({ ...BASE, signed_on: '2026-02-01', valid_until: '2027-03-01' });
    expect((await evaluateAttestations(args([a, b]))).validUntil).toBe('2027-03-01');
  });

  it('ignores malformed dates and not-yet-valid entries', async () => {
    for (const dates of [
      { signed_on: '2026-1-01', valid_until: '2027-01-01' },
      { signed_on: '2026-02-30', valid_until: '2027-01-01' },
      { signed_on: '2026-01-01', valid_until: '2027-13-01' },
      { signed_on: '2026-01-01', valid_until: '2027-01-01T00:00:00Z' },
      { signed_on: '', valid_until: '2027-01-01' },
      { signed_on: '2026-06-02', valid_until: '2027-01-01' }, // tomorrow
    ]) {
      const e = await signed({ ...BASE, ...dates });
      const r = await evaluateAttestations(args([e]));
      expect(r.verdict, JSON.stringify(dates)).toBe('unattested');
      expect(r.message).toContain('malformed or future dates');
    }
    // Leap day is a real date.
    const leap = await signed({ ...BASE, signed_on: '2024-02-29', valid_until: '2027-01-01' });
    expect((await evaluateAttestations(args([leap]))).verdict).toBe('attested');
    // valid_until is inclusive: attested on that day, expired the day after.
    const edge = await signed({ ...BASE, signed_on: '2026-01-01', valid_until: '2026-06-01' });
    expect((await evaluateAttestations(args([edge], '2026-06-01'))).verdict).toBe('attested');
    expect((await evaluateAttestations(args([edge], '2026-06-02'))).verdict).toBe('expired');
  });

  it('sigstore entries are unknown attesters; malformed signatures from registered keys are invalid', async () => {
    const sig: AttestationEntry = { ...BASE, attester: 'sigstore:https://github.com/x', signed_on: '2026-01-01', valid_until: '2027-01-01', signature: null, sigstore: true };
    const r = await evaluateAttestations({ ...args([sig]), registry: { ...testRegistry, 'sigstore:https://github.com/x': testRegistry['human:tester']! } });
    expect(r.verdict).toBe('unattested');
    expect(r.message).toContain('unregistered');
    const good = await signed({ ...BASE, signed_on: '2026-01-01', valid_until: '2027-01-01' });
    for (const s of ['not base64!', good.signature!.replace(/=+$/, ''), encodeBase64(new Uint8Array(63))]) {
      expect((await evaluateAttestations(args([{ ...good, signature: s }]))).verdict, s).toBe('invalid');
    }
    expect((await evaluateAttestations(args([{ ...good, signature: null }]))).verdict).toBe('invalid');
  });

  it('ignores entries for other origins and does not let __proto__ act as an attester', async () => {
    const other = await signed({ ...BASE, origin: 'https://example.org', signed_on: '2026-01-01', valid_until: '2027-01-01' });
    expect((await evaluateAttestations(args([other]))).verdict).toBe('unattested');
    const proto = { ...(await signed({ ...BASE, signed_on: '2026-01-01', valid_until: '2027-01-01' })), attester: '__proto__' };
    expect((await evaluateAttestations(args([proto]))).verdict).toBe('unattested');
  });
});
