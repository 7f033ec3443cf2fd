// The limit for the engine under node: a bare loop over the same origins and the same fetch that
// does only what verification must do, and the engine's own probe timed whole with the share of
// its report phase (skillReport for every skill, then buildReport), both in the same process.
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { defaultSettings } from '../../../lib/store/settings';
import type { FetchLike } from '../../../lib/types';
import type { TrustStore } from '../../../lib/store/store-api';
import { realClock } from './engine';

function b64(s: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * Per origin: llms.txt and the index fetched together, signing_key imported once, then the
 * SKILL.md files six at a time, each hashed (crypto.subtle.digest), its digest compared with the
 * index entry's and its signature verified (crypto.subtle.verify, no strict checks). No parsing of
 * llms.txt or frontmatter, no trust store, no report: the same loop the worker bench runs
 * (verdict.bench.ts, bareVerify), here under node over the engine's own fetch. Returns the number
 * of skills verified.
 */
export async function bareVerifyLoop(origins: readonly string[], fetch: FetchLike): Promise<number> {
  let verified = 0;
  for (const origin of origins) {
    const get = async (p: string): Promise<Uint8Array<ArrayBuffer>> => new Uint8Array(await (await fetch(new URL(p, origin).href, {})).arrayBuffer());
    const [, indexBytes] = await Promise.all([get('/llms.txt'), get('/.well-known/agent-skills/index.json')]);
    const index = JSON.parse(new TextDecoder().decode(indexBytes)) as { signing_key: string; skills: { url: string; sha256: string; signature: string }[] };
    const key = await crypto.subtle.importKey('raw', b64(index.signing_key), { name: 'Ed25519' }, false, ['verify']);
    const entries = index.skills;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(6, entries.length) }, async () => {
        while (next < entries.length) {
          const e = entries[next++] as (typeof entries)[number];
          const bytes = await get(e.url);
          const digest = hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
          if (digest === e.sha256 && (await crypto.subtle.verify({ name: 'Ed25519' }, key, b64(e.signature), bytes))) verified += 1;
        }
      }),
    );
  }
  return verified;
}

/** The engine over the same origins, one probe each: the whole time, the report phase's time, and the skills verified. */
export async function engineWithReportShare(origins: readonly string[], fetch: FetchLike, store: TrustStore): Promise<{ ms: number; reportMs: number; verified: number }> {
  let reportMs = 0;
  let verified = 0;
  const t0 = performance.now();
  for (const origin of origins) {
    let reportStart: number | null = null;
    const r = await probeOrigin(
      origin,
      { fetch, store, clock: realClock, settings: defaultSettings() },
      {
        onPhase: (p) => {
          const now = performance.now();
          if (reportStart !== null) reportMs += now - reportStart;
          reportStart = p === 'report' ? now : null;
        },
      },
    );
    verified += r.skills.filter((k) => k.status === 'verified-signed').length;
  }
  return { ms: performance.now() - t0, reportMs, verified };
}
