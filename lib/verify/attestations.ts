// Skill attestations (FORMATS.md §8): advisory verdicts from a user-configured
// reviewer registry over /.well-known/agent-skills/attestations.json.
//
// Per skill, an entry counts when its origin equals the probed origin exactly,
// its `skill` equals the listed name and its `tool_sha256` equals the skill's
// declared tool_sha256 (hex, case-insensitive), its attester is in the
// registry with a usable key, and its dates are well-formed with
// today >= signed_on. Counted entries are signature-checked over
// origin "\n" skill "\n" tool_sha256 "\n" signed_on "\n" valid_until.
// Verdict precedence: invalid > attested > expired > unattested.

import type { AttestationReport, ReviewerRegistry } from '../types';
import { parsePublicKey, verifySignatureB64 } from './ed25519';

export interface AttestationEntry {
  origin: string;
  skill: string;
  tool_sha256: string;
  attester: string;
  signed_on: string;
  valid_until: string;
  /** Base64 Ed25519 signature, or null when the entry has none (e.g. sigstore). */
  signature: string | null;
  /** The entry carries a `sigstore_bundle` (never verified here: UNKNOWN-ATTESTER). */
  sigstore: boolean;
}

export type AttestationParse = { ok: true; entries: AttestationEntry[]; skipped: number } | { ok: false; code: string; message: string };

const REQUIRED_STRINGS = ['origin', 'skill', 'tool_sha256', 'attester', 'signed_on', 'valid_until'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toEntry(v: unknown): AttestationEntry | null {
  if (!isRecord(v)) return null;
  for (const k of REQUIRED_STRINGS) if (typeof v[k] !== 'string') return null;
  const strings = Object.fromEntries(REQUIRED_STRINGS.map((k) => [k, v[k]])) as Pick<AttestationEntry, (typeof REQUIRED_STRINGS)[number]>;
  const signature = typeof v['signature'] === 'string' ? v['signature'] : null;
  const sigstore = v['sigstore_bundle'] !== undefined && v['sigstore_bundle'] !== null;
  return { ...strings, signature, sigstore };
}

/**
 * Parses the document. It must be a JSON array; the unrelated knowledge-
 * freshness object (`vigencia_version`) is refused with its own code.
 * Elements that are not objects with the six string fields are skipped
 * (counted in `skipped`).
 */
export function parseAttestations(bytes: Uint8Array): AttestationParse {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, code: 'attestations-encoding', message: 'attestations.json is not valid UTF-8' };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, code: 'attestations-json', message: `attestations.json is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (isRecord(doc) && 'vigencia_version' in doc) {
    return {
      ok: false,
      code: 'attestations-other-format',
      message: 'attestations.json is a knowledge-freshness document (vigencia_version), not skill attestations',
    };
  }
  if (!Array.isArray(doc)) return { ok: false, code: 'attestations-not-array', message: 'attestations.json must be a JSON array' };
  const entries = (doc as unknown[]).map(toEntry).filter((entry) => entry !== null);
  return { ok: true, entries, skipped: doc.length - entries.length };
}

/** A strict YYYY-MM-DD calendar date, or null. */
function parseDate(s: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return null;
  const [y = 0, mo = 0, d = 0] = m.slice(1).map(Number);
  if (mo < 1 || mo > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d > days ? null : s;
}

/** The exact signed bytes of an entry. */
export function attestationPayload(e: Pick<AttestationEntry, 'origin' | 'skill' | 'tool_sha256' | 'signed_on' | 'valid_until'>): Uint8Array {
  return new TextEncoder().encode([e.origin, e.skill, e.tool_sha256, e.signed_on, e.valid_until].join('\n'));
}

export interface EvaluateArgs {
  entries: AttestationEntry[];
  /** The probed origin's serialization (`new URL(x).origin`: no trailing slash). */
  origin: string;
  /** The skill's name as listed. */
  skillName: string;
  /** The skill's declared tool_sha256; null for prose-only skills. */
  toolSha256: string | null;
  registry: ReviewerRegistry;
  today: Date;
}

function report(verdict: AttestationReport['verdict'], code: string, message: string, attester: string | null = null, validUntil: string | null = null): AttestationReport {
  return { verdict, attester, validUntil, message, code };
}

/** The advisory verdict for one skill. Never throws. */
export async function evaluateAttestations(args: EvaluateArgs): Promise<AttestationReport> {
  try {
    const { entries, origin, skillName, registry } = args;
    if (args.toolSha256 === null) return report('unattested', 'attestation-prose-only', 'no tool_sha256 declared: a prose-only skill cannot be attested');
    const tool = args.toolSha256.toLowerCase();
    // Today's UTC calendar date, as YYYY-MM-DD.
    const today = args.today.toISOString().slice(0, 10);

    const invalid: AttestationEntry[] = [];
    const attested: AttestationEntry[] = [];
    const expired: AttestationEntry[] = [];
    let unknownAttesters = 0;
    let ignoredDates = 0;

    for (const e of entries) {
      if (e.origin !== origin || e.skill !== skillName || e.tool_sha256.toLowerCase() !== tool) continue;
      if ((e.sigstore && e.signature === null) || e.attester.startsWith('sigstore:') || !Object.hasOwn(registry, e.attester)) {
        unknownAttesters++;
        continue;
      }
      const reg: unknown = registry[e.attester];
      const keyB64 = isRecord(reg) && typeof reg['public_key'] === 'string' ? reg['public_key'] : null;
      if (keyB64 === null || !parsePublicKey(keyB64).ok) {
        // A registry entry without a usable key cannot vouch for anything.
        unknownAttesters++;
        continue;
      }
      const signedOn = parseDate(e.signed_on);
      const validUntil = parseDate(e.valid_until);
      if (signedOn === null || validUntil === null || today < signedOn) {
        ignoredDates++;
        continue;
      }
      const sig = e.signature === null ? null : await verifySignatureB64(keyB64, e.signature, attestationPayload(e));
      if (sig === null || !sig.ok) invalid.push(e);
      else if (today > validUntil) expired.push(e);
      else attested.push(e);
    }

    const first = invalid[0];
    if (first !== undefined) {
      return report('invalid', 'attestation-invalid', `attestation by registered reviewer ${first.attester} does not verify for ${skillName}`, first.attester, first.valid_until);
    }
    if (attested.length > 0) {
      const best = attested.reduce((a, b) => (b.valid_until > a.valid_until ? b : a));
      return report('attested', 'attestation-attested', `attested by ${best.attester} until ${best.valid_until}`, best.attester, best.valid_until);
    }
    if (expired.length > 0) {
      const last = expired.reduce((a, b) => (b.valid_until > a.valid_until ? b : a));
      return report('expired', 'attestation-expired', `attestation by ${last.attester} expired on ${last.valid_until}`, last.attester, last.valid_until);
    }
    const notes: string[] = [];
    if (unknownAttesters > 0) notes.push(`${unknownAttesters} by unregistered attesters`);
    if (ignoredDates > 0) notes.push(`${ignoredDates} with malformed or future dates`);
    return report('unattested', 'attestation-none', notes.length > 0 ? `no usable attestation (${notes.join(', ')} ignored)` : 'no attestation for this skill');
  } catch (e) {
    return report('unattested', 'attestation-error', `attestations could not be evaluated: ${e instanceof Error ? e.message : String(e)}`);
  }
}
