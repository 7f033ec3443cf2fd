// The organisation's policy (docs/policies.md), read from managed storage once and again after
// it changes (forget). A policy that cannot be read now is not kept: the next call tries again.
// Chromium can leave storage.managed.get unanswered while a tab's page is still loading (seen
// with a page whose image never arrives): a caller waits at most POLICY_WAIT_MS, then goes on
// as if no policy were set, and the read in flight is kept for the callers after it.
import { noPolicy, parseManaged, type ManagedPolicy } from '../trust/managed';

/** How long a caller waits for managed storage before it goes on without a policy. */
export const POLICY_WAIT_MS = 2000;

export interface PolicyCache {
  get(): Promise<ManagedPolicy>;
  /** Managed storage changed: the next get reads it again. */
  forget(): void;
}

type Read = ManagedPolicy & { unreadable?: true };

/** `source.getManaged` absent: no policy can apply (node tests that do not inject one). */
export function policyCache(source: { getManaged?(): Promise<unknown> }): PolicyCache {
  let known: ManagedPolicy | null = null;
  let reading: Promise<Read> | null = null;

  async function read(): Promise<Read> {
    if (!source.getManaged) return noPolicy();
    try {
      return parseManaged(await source.getManaged());
    } catch (e) {
      return { ...noPolicy(), invalid: [`policy unreadable: ${e instanceof Error ? e.message : String(e)}`], unreadable: true };
    }
  }

  async function get(): Promise<ManagedPolicy> {
    if (known) return known;
    if (!reading) {
      const current = read();
      reading = current;
      void current.then((p) => {
        if (reading !== current) return;
        reading = null;
        if (!p.unreadable) known = p;
      });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<ManagedPolicy>((resolve) => {
      timer = setTimeout(() => resolve({ ...noPolicy(), invalid: ['policy unreadable: managed storage did not answer in time'] }), POLICY_WAIT_MS);
    });
    try {
      return await Promise.race([reading, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    get,
    forget: () => {
      known = null;
      reading = null;
    },
  };
}
