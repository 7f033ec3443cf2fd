// The engine hashes artifacts with the SHA-256 of its injected I/O (EngineDeps.sha256): node's
// native hash gives the same report as the default, every downloaded artifact passes through it,
// and a hash that answers wrongly is seen (the digests then fail), so nothing else hashes them.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import type { Sha256 } from '../../../lib/verify/sha256';
import { DEFAULT_SETTINGS, type OriginReport } from '../../../lib/types';
import { serversClosedAfterEach } from '../../support/test-servers';
import { FakeClock, freshStore } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';

const startTestServer = serversClosedAfterEach();
const K = keyPair(71);

const native: Sha256 = async (bytes) => new Uint8Array(createHash('sha256').update(bytes).digest());

async function probeWith(origin: string, sha256?: Sha256): Promise<OriginReport> {
  return probeOrigin(origin, { fetch: (u, i) => fetch(u, i), store: await freshStore(), clock: new FakeClock(), settings: DEFAULT_SETTINGS, ...(sha256 ? { sha256 } : {}) });
}

const digests = (r: OriginReport) => r.skills.map((s) => [s.name, s.status, s.actual?.raw, s.actual?.lf]);

describe('the SHA-256 of the injected I/O', () => {
  it('gives the report the default gives, and hashes every downloaded artifact', async () => {
    const s = await startTestServer({ files: buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }, { name: 'gamma' }], key: K }) });
    let calls = 0;
    const counted: Sha256 = (b) => {
      calls++;
      return native(b);
    };
    const injected = await probeWith(s.origin, counted);
    const plain = await probeWith(s.origin);
    expect(digests(injected)).toEqual(digests(plain));
    expect(injected.skills.every((k) => k.status === 'verified-signed')).toBe(true);
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('is the only hash of the artifacts: a wrong one makes every digest fail', async () => {
    const s = await startTestServer({ files: buildSite({ skills: [{ name: 'alpha' }, { name: 'beta' }], key: K }) });
    const wrong: Sha256 = async () => new Uint8Array(32);
    const r = await probeWith(s.origin, wrong);
    expect(r.skills.map((k) => k.status)).toEqual(['digest-mismatch', 'digest-mismatch']);
  });
});
