// A probe whose verified bytes the store refuses for the byte budget (only approved bytes left)
// says so in the report with its own code, keeps the statuses it found, and loses nothing stored.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import type { TrustStore } from '../../../lib/store/store-api';
import { DEFAULT_SETTINGS, type Approval } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';
import { openTestStore } from '../../support/trust-store';
import { FakeClock } from '../../support/engine-harness';

const hex = (b: string): string => createHash('sha256').update(b).digest('hex');
const APPROVED = `---\nname: approved\ndescription: approved skill\n---\n${'a'.repeat(700)}\n`;
const FRESH = `---\nname: fresh\ndescription: another skill\n---\n${'b'.repeat(500)}\n`;

let server: TestServer;
let store: TrustStore;

beforeEach(async () => {
  server = await startServer({
    files: {
      '/.well-known/agent-skills/index.json': JSON.stringify({
        skills: [
          { name: 'approved', type: 'skill-md', description: 'approved skill', url: '/skills/approved/SKILL.md', digest: `sha256:${hex(APPROVED)}` },
          { name: 'fresh', type: 'skill-md', description: 'another skill', url: '/skills/fresh/SKILL.md', digest: `sha256:${hex(FRESH)}` },
        ],
      }),
      '/skills/approved/SKILL.md': APPROVED,
      '/skills/fresh/SKILL.md': FRESH,
    },
  });
  ({ store } = await openTestStore({ maxSkillBytesPerOrigin: 1000 }));
});

afterEach(async () => {
  store.close();
  await server.close();
});

describe('a probe over the byte budget', () => {
  it('reports skill-bytes-over-budget and keeps the approved bytes', async () => {
    const url = server.url('/skills/approved/SKILL.md');
    const bytes = new TextEncoder().encode(APPROVED);
    const approval: Approval = {
      origin: server.origin,
      url,
      digestLf: hex(APPROVED),
      digestRaw: hex(APPROVED),
      keyFingerprint: null,
      statusAtApproval: 'verified',
      name: 'approved',
      approvedAt: 1,
    };
    await store.approve(approval, { origin: server.origin, url, digestLf: approval.digestLf, digestRaw: approval.digestRaw, bytes, storedAt: 1 });

    const report = await probeOrigin(server.origin, { fetch: (u, i) => fetch(u, i), store, clock: new FakeClock(), settings: DEFAULT_SETTINGS }, { force: true });
    expect(report.state).toBe('done');
    const codes = report.diagnostics.map((d) => d.code);
    expect(codes).toContain('skill-bytes-over-budget');
    expect(codes).not.toContain('storage-error');
    expect(report.skills.map((s) => s.status).sort()).toEqual(['verified', 'verified']);
    expect(await store.getSkill(server.origin, url, approval.digestLf)).not.toBeNull();
    expect(await store.getLatestSkill(server.origin, server.url('/skills/fresh/SKILL.md'))).toBeNull();
  });
});
