// The organisation's policy fails closed (PRODUCT.md §10): a read that does not answer in time or
// fails is never "no policy". The last policy read this session is used instead; with none, the
// answer is null (the gates then refuse), and the read is asked again.
import { describe, expect, it } from 'vitest';
import { POLICY_SESSION_KEY, policyCache, type PolicySource } from '../../../lib/background/policy-cache';

const WAIT = 20;

/** Managed storage whose answers the test releases one read at a time. */
class Managed implements PolicySource {
  reads: { resolve(v: unknown): void; reject(e: Error): void }[] = [];
  session = new Map<string, unknown>();
  getManaged(): Promise<unknown> {
    return new Promise((resolve, reject) => this.reads.push({ resolve, reject }));
  }
  async getSession(key: string) {
    return this.session.get(key);
  }
  async setSession(key: string, value: unknown) {
    this.session.set(key, value);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('policyCache', () => {
  it('answers the policy read, and keeps it for the session', async () => {
    const m = new Managed();
    const cache = policyCache(m, { now: () => 0, waitMs: WAIT });
    const got = cache.get();
    m.reads[0]?.resolve({ denyList: ['https://bank.example'] });
    expect((await got)?.settings.denyList).toEqual(['https://bank.example']);
    await tick();
    expect(m.session.get(POLICY_SESSION_KEY)).toEqual({ raw: { denyList: ['https://bank.example'] } });
    expect(cache.problem()).toBeNull();
  });

  it('managed storage that does not answer, and nothing kept: null, not "no policy"; the late answer is then used and announced', async () => {
    const m = new Managed();
    let arrived = 0;
    const cache = policyCache(m, { now: () => 0, waitMs: WAIT, onArrived: () => arrived++ });
    expect(await cache.get()).toBeNull();
    expect(cache.problem()).toMatch(/did not arrive within/);
    m.reads[0]?.resolve({ requireSignedSkills: true });
    await tick();
    expect(arrived).toBe(1);
    expect((await cache.get())?.requireSigned).toBe(true);
  });

  it('managed storage that does not answer, with a policy kept from earlier in the session: that policy', async () => {
    const m = new Managed();
    m.session.set(POLICY_SESSION_KEY, { raw: { denyList: ['https://kept.example'] } });
    const cache = policyCache(m, { now: () => 0, waitMs: WAIT });
    expect((await cache.get())?.settings.denyList).toEqual(['https://kept.example']);
  });

  it('a read that fails is no answer: null, and the next call reads again', async () => {
    const m = new Managed();
    const cache = policyCache(m, { now: () => 0, waitMs: WAIT });
    const first = cache.get();
    m.reads[0]?.reject(new Error('storage broke'));
    expect(await first).toBeNull();
    expect(cache.problem()).toBe("The organisation's settings could not be read (storage broke).");
    const second = cache.get();
    expect(m.reads).toHaveLength(2);
    m.reads[1]?.resolve(undefined);
    expect(await second).toMatchObject({ requireSigned: false, pinnedKeys: [] });
  });

  it('a read unanswered for the retry time is asked again beside it, and the first answer wins', async () => {
    const m = new Managed();
    let now = 0;
    const cache = policyCache(m, { now: () => now, waitMs: WAIT, retryMs: 1000 });
    expect(await cache.get()).toBeNull();
    expect(m.reads).toHaveLength(1);
    now = 500;
    expect(await cache.get()).toBeNull();
    expect(m.reads).toHaveLength(1);
    now = 1500;
    const third = cache.get();
    expect(m.reads).toHaveLength(2);
    m.reads[1]?.resolve({ probing: false });
    expect((await third)?.settings.paused).toBe(true);
  });

  it('after the policy changed, a read started before the change neither wins nor is kept', async () => {
    const m = new Managed();
    const cache = policyCache(m, { now: () => 0, waitMs: WAIT });
    const before = cache.get();
    cache.forget();
    const after = cache.get();
    m.reads[0]?.resolve({ denyList: ['https://old.example'] });
    m.reads[1]?.resolve({ denyList: ['https://new.example'] });
    expect((await after)?.settings.denyList).toEqual(['https://new.example']);
    await before;
    await tick();
    expect((await cache.get())?.settings.denyList).toEqual(['https://new.example']);
    expect(m.session.get(POLICY_SESSION_KEY)).toEqual({ raw: { denyList: ['https://new.example'] } });
  });

  it('without managed storage at all (node tests) no policy applies', async () => {
    const cache = policyCache({}, { now: () => 0, waitMs: WAIT });
    expect(await cache.get()).toMatchObject({ requireSigned: false, pinnedKeys: [], settings: {} });
  });
});

describe('policyCache.settled', () => {
  it('resolves as soon as a policy is known, or at the latest after the time given', async () => {
    const m = new Managed();
    const cache = policyCache(m, { now: () => Date.now(), waitMs: WAIT });
    const started = Date.now();
    const settled = cache.settled(5000);
    await new Promise((r) => setTimeout(r, 40));
    m.reads[0]?.resolve({ probing: false });
    await settled;
    expect(Date.now() - started).toBeLessThan(4000);
    const hung = policyCache(new Managed(), { now: () => Date.now(), waitMs: WAIT });
    await hung.settled(60);
    expect(await hung.get()).toBeNull();
  });
});
