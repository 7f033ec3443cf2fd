// A normal window's report request that arrives while a private window's probe is still being
// judged (its private flag not read yet) never gets the private window's result: the two windows
// never share a probe's result (PRODUCT.md §2.1).
import { describe, expect, it } from 'vitest';
import { createProbeGate } from '../../../lib/background/probe-gate';
import { noPolicy } from '../../../lib/store/policy';
import { DEFAULT_SETTINGS, type OriginReport } from '../../../lib/types';

const ORIGIN = 'https://docs.example.com';

function report(marker: string): OriginReport {
  return {
    reportVersion: 1,
    origin: ORIGIN,
    state: 'done',
    skippedBecause: marker,
    startedAt: 0,
    finishedAt: 0,
    publishes: false,
    sources: [],
    key: { state: 'none', pinned: null, offered: null, conflicting: null },
    skills: [],
    diagnostics: [],
  } as unknown as OriginReport;
}

/** A gate whose private-window check waits until the test says which kind of window the request was about. */
function gateWithPendingFlag(settings = DEFAULT_SETTINGS) {
  let releaseFlag: (v: boolean) => void = () => undefined;
  const flag = new Promise<boolean>((resolve) => {
    releaseFlag = resolve;
  });
  const gate = createProbeGate({
    clock: { now: () => 0 },
    run: async (_origin, opts) => report(opts.private ? 'private-result' : 'normal-result'),
    policy: async () => noPolicy(),
    settings: async () => settings,
    privateRequest: () => flag,
    mayRead: async () => true,
  });
  return { gate, releaseFlag: (v: boolean) => releaseFlag(v) };
}

describe('probe gate: private and normal windows', () => {
  it('a normal join during a private check answers null, not the private result', async () => {
    const { gate, releaseFlag } = gateWithPendingFlag({ ...DEFAULT_SETTINGS, probeInPrivate: true });
    const privateProbe = gate.probe('recheck', ORIGIN, { kind: 'request', tabId: 7, sender: {} });
    await Promise.resolve();
    const joined = gate.join(ORIGIN, false);
    releaseFlag(true);
    expect((await privateProbe).skippedBecause).toBe('private-result');
    const answer = joined === null ? null : await joined;
    expect(answer).toBeNull();
  });

  it('a normal join during a normal check answers that probe', async () => {
    const { gate, releaseFlag } = gateWithPendingFlag();
    const probe = gate.probe('recheck', ORIGIN, { kind: 'request', tabId: 7, sender: {} });
    await Promise.resolve();
    const joined = gate.join(ORIGIN, false);
    releaseFlag(false);
    await probe;
    expect(joined).not.toBeNull();
    expect((await joined)?.skippedBecause).toBe('normal-result');
  });
});
