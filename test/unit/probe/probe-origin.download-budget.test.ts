// The per-probe download budget: every artifact body of one probe draws from one
// budget (32 MiB), so a site listing 64 archives of 16 MiB costs one visit at most 32 MiB; the
// artifacts past it are fetch-failed (`probe-budget`) with an origin diagnostic, nothing stored before
// is lost, and a later probe fetches them. Real engine, real store, real HTTP.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { LIMITS } from '../../../lib/net/limits';
import type { FetchLike, OriginReport } from '../../../lib/types';
import { zipSync } from 'fflate';
import { approveSkill, harness, type Harness } from '../../support/engine-harness';
import { buildSite, skillText } from '../../support/signed-sites';
import { serversClosedAfterEach } from '../../support/test-servers';

const serve = serversClosedAfterEach();
const MiB = 1024 * 1024;
const enc = new TextEncoder();
const hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** A stored (uncompressed) zip of `size` bytes: what it costs to download is what it weighs. */
function bigZip(name: string, size: number): Uint8Array {
  const md = enc.encode(`---\nname: ${name}\ndescription: A big archive.\n---\n`);
  return zipSync({ 'SKILL.md': [md, { level: 0 }], 'blob.bin': [new Uint8Array(size).fill(7), { level: 0 }] });
}

/** fetch, counting the body bytes the engine read of the URLs under `prefix` (what it downloaded). */
function countingFetch(prefix: string): { fetch: FetchLike; read: () => number } {
  let read = 0;
  return {
    read: () => read,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (!new URL(url).pathname.startsWith(prefix) || !res.body) return res;
      const counted = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, c) {
            read += chunk.byteLength;
            c.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  };
}

function archiveIndex(archives: Record<string, Uint8Array>): string {
  return JSON.stringify({ skills: Object.entries(archives).map(([name, zip]) => ({ name, type: 'archive', url: `/a/${name}.zip`, digest: `sha256:${hex(zip)}` })) });
}

const withBudget =
  (h: Harness, budget: number, fetchImpl: FetchLike = (u, i) => fetch(u, i)) =>
  (origin: string, force = false): Promise<OriginReport> =>
    probeOrigin(origin, { fetch: fetchImpl, store: h.store, clock: h.clock, settings: h.settings, downloadBudget: budget }, { force });

describe('per-probe download budget', () => {
  it('is 32 MiB: three archives of 15 MiB cost one probe at most 32 MiB, the third is left with a clear status', async () => {
    expect(LIMITS.probeDownload).toBe(32 * MiB);
    const archives = { one: bigZip('one', 15 * MiB), two: bigZip('two', 15 * MiB), three: bigZip('three', 15 * MiB) };
    const files: Record<string, string | Uint8Array> = { '/.well-known/agent-skills/index.json': archiveIndex(archives) };
    for (const [name, zip] of Object.entries(archives)) files[`/a/${name}.zip`] = zip;
    const s = await serve({ files });
    const counted = countingFetch('/a/');
    const h = await harness(counted.fetch);
    const r = await h.probe(s.origin);
    const statuses = r.skills.map((k) => `${k.status}/${k.statusCode}`).sort();
    expect(statuses).toEqual(['fetch-failed/probe-budget', 'verified/verified', 'verified/verified']);
    expect(r.diagnostics.map((d) => d.code)).toContain('probe-budget-used');
    expect(r.diagnostics.find((d) => d.code === 'probe-budget-used')?.message).toContain('1 was left for a later probe');
    // Downloads are admitted whole by their Content-Length: the refused one is not read at all.
    expect(counted.read()).toBeLessThanOrEqual(32 * MiB);
    expect(counted.read()).toBeGreaterThanOrEqual(30 * MiB);
    const refused = r.skills.find((k) => k.statusCode === 'probe-budget');
    expect(refused?.statusMessage).toContain('32 MiB');
    expect(refused?.approval.state).toBe('none');
    // Building and serving 45 MiB takes a while on a loaded machine: a generous bound, not a timing claim.
  }, 120_000);

  it('a later probe fetches what was left, and the artifacts stored meanwhile are not downloaded again', async () => {
    const skills = Array.from({ length: 6 }, (_, i) => ({ name: `s${i}`, text: skillText(`s${i}`, 'x'.repeat(200 * 1024)) }));
    const s = await serve({ files: buildSite({ skills }) });
    const h = await harness();
    const counted = countingFetch('/skills/');
    const probe = withBudget(h, MiB, counted.fetch);
    const first = await probe(s.origin);
    expect(first.skills.filter((k) => k.statusCode === 'probe-budget')).toHaveLength(1);
    expect(counted.read()).toBeLessThanOrEqual(MiB);
    const before = s.log.length;
    const second = await probe(s.origin, true);
    expect(second.skills.map((k) => k.status)).toEqual(Array(6).fill('verified'));
    // Five were verified and stored before: the forced probe revalidates them (304), the sixth is downloaded.
    const downloads = s.log.slice(before).filter((r) => r.path.startsWith('/skills/') && r.status === 200);
    expect(downloads.map((r) => r.path)).toEqual([first.skills.find((k) => k.statusCode === 'probe-budget')!.url!.replace(s.origin, '')]);
    expect(second.diagnostics.map((d) => d.code)).not.toContain('probe-budget-used');
  });

  it('nothing stored before is lost: an approved skill whose new version does not fit keeps its approved bytes', async () => {
    const skills = (body: string) => Array.from({ length: 6 }, (_, i) => ({ name: `s${i}`, text: skillText(`s${i}`, body + 'x'.repeat(200 * 1024)) }));
    const s = await serve({ files: buildSite({ skills: skills('v1 ') }) });
    const h = await harness();
    const probe = withBudget(h, 2 * MiB);
    const first = await probe(s.origin);
    expect(first.skills.every((k) => k.status === 'verified')).toBe(true);
    for (const k of first.skills) await approveSkill(h, first, k);
    s.options.files = buildSite({ skills: skills('v2 ') });
    const small = withBudget(h, MiB);
    const r = await small(s.origin, true);
    const left = r.skills.filter((k) => k.statusCode === 'probe-budget');
    expect(left.length).toBeGreaterThan(0);
    for (const k of left) {
      expect(k.approval.state).toBe('suspended');
      const approval = k.approval.approval!;
      expect(await h.store.getSkill(s.origin, approval.url, approval.digestLf)).not.toBeNull();
    }
    // The ones that fit are content-changed, as any new version of an approved skill.
    expect(r.skills.filter((k) => k.statusCode !== 'probe-budget').every((k) => k.status === 'content-changed')).toBe(true);
  });

  it('a body without Content-Length draws from the budget as it streams, and is cut off past it', async () => {
    const text = skillText('streamed', 'y'.repeat(200 * 1024));
    const routes = [
      async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL) => {
        if (url.pathname !== '/skills/streamed/SKILL.md') return false;
        res.writeHead(200, { 'Content-Type': 'text/markdown' });
        const bytes = Buffer.from(text);
        for (let at = 0; at < bytes.length; at += 16 * 1024) res.write(bytes.subarray(at, at + 16 * 1024));
        res.end();
        void req;
        return true;
      },
    ];
    const s = await serve({ files: buildSite({ skills: [{ name: 'streamed', text }] }), routes });
    const h = await harness();
    const tight = await withBudget(h, 100 * 1024)(s.origin);
    expect(tight.skills[0]).toMatchObject({ status: 'fetch-failed', statusCode: 'probe-budget' });
    const roomy = await withBudget(h, MiB)(s.origin, true);
    expect(roomy.skills[0]?.status).toBe('verified');
  });
});
