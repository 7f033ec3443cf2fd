// The origin's signing key against its pin: FORMATS.md §5 key-state table, PRODUCT.md §5.
// signing-key.pub is fetched when the index carries any signature or the origin is pinned;
// the first usable key is pinned silently (compare-and-set), a malformed or revoked key never is.
import { decodeUtf8 } from '../parse/decode';
import { diag } from '../report/codes';
import { DOCUMENTS, type Diagnostic, type KeyInfo, type KeyReport, type Pin, type SourceReport } from '../types';
import type { ParsedIndex } from '../parse/index-json';
import { parsePublicKey } from '../verify/ed25519';
import { encodeBase64 } from '../verify/base64';
import { fingerprint } from '../verify/fingerprint';
import { fetchDocument, type DocOutcome, type ProbeIO } from './discover';
import type { PinResult } from '../store/store-api';
import type { ManagedKey } from '../store/policy';

/** What the probe decided about the origin's key: the report's key part and the key signatures are checked against. */
export interface KeyOutcome {
  report: KeyReport;
  /** The key signatures are checked against (state `pinned-now` or `match`). */
  verifyKey: KeyInfo | null;
  /** The offered key is malformed: signed entries are `bad-signature`, nothing is pinned. */
  malformed: { code: string; message: string } | null;
  sources: SourceReport[];
  diagnostics: Diagnostic[];
}

type Offer = { ok: true; info: KeyInfo } | { ok: false; code: string; message: string };

function readKey(text: string, source: KeyInfo['source']): Offer {
  const parsed = parsePublicKey(text);
  if (!parsed.ok) return { ok: false, code: parsed.code, message: parsed.message };
  return { ok: true, info: { key: encodeBase64(parsed.key), fingerprint: fingerprint(parsed.key), source } };
}

/** ASCII whitespace only (FORMATS.md §5: `.pub` may end with a LF). */
function trimAscii(s: string): string {
  return s.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
}

/** The inputs of the key decision, separated from I/O so the table can be tested row by row. */
export interface KeyFacts {
  /** The index in use, or null when there is none (absent or invalid). */
  index: ParsedIndex | null;
  /** The index could not be obtained at all (transient, no stored copy). */
  indexUnavailable: boolean;
  /** signing-key.pub: its trimmed text, `absent`, `unavailable`, or `not-fetched`. */
  pub: { text: string } | 'absent' | 'unavailable' | 'not-fetched';
  pin: Pin | null;
}

export type KeyDecision =
  | { action: 'pin'; offered: KeyInfo }
  | { action: 'compare'; offered: KeyInfo }
  | { action: 'report'; state: KeyReport['state']; offered: KeyInfo | null; conflicting: KeyInfo | null; unavailable: boolean };

/** FORMATS.md §5 without I/O. Diagnostics about the key documents go into `diagnostics`. */
export function decideKey(f: KeyFacts, diagnostics: Diagnostic[], indexUrl: string, pubUrl: string): { decision: KeyDecision; malformed: KeyOutcome['malformed'] } {
  let indexOffer: Offer | null = null;
  const idx = f.index;
  // May signing-key.pub supply the key? With signing_alg "ed25519" and no signing_key, with no
  // signing fields at all, or with no index; not when the index says it signs another way.
  let pubAllowed = true;
  if (idx) {
    if (idx.signingAlg === 'ed25519') {
      if (idx.signingKey !== null) indexOffer = readKey(idx.signingKey, 'index');
    } else if (idx.signingAlg === null) {
      if (idx.signingKey !== null) {
        pubAllowed = false;
        diagnostics.push(diag('signing-alg-missing', 'signing_key without signing_alg: the origin is treated as not signing.', { url: indexUrl }));
      }
    } else {
      pubAllowed = false;
      diagnostics.push(diag('signing-alg-unknown', `signing_alg "${idx.signingAlg}" is not "ed25519": the origin is treated as not signing.`, { url: indexUrl }));
    }
  }
  let pubOffer: Offer | null = null;
  if (typeof f.pub === 'object' && pubAllowed) {
    pubOffer = readKey(f.pub.text, 'signing-key.pub');
    if (!pubOffer.ok) diagnostics.push(diag('signing-key-pub-malformed', `signing-key.pub: ${pubOffer.message}.`, { url: pubUrl }));
  }

  let malformed: KeyOutcome['malformed'] = null;
  let offered: KeyInfo | null = null;
  let conflicting: KeyInfo | null = null;
  if (indexOffer && !indexOffer.ok) {
    malformed = { code: 'signing-key-malformed', message: `The index signing_key is malformed: ${indexOffer.message}.` };
    diagnostics.push(diag('signing-key-malformed', malformed.message, { url: indexUrl }));
  } else if (indexOffer && indexOffer.ok) {
    offered = indexOffer.info;
    if (pubOffer && pubOffer.ok && pubOffer.info.key !== offered.key) conflicting = pubOffer.info;
  } else if (pubOffer && pubOffer.ok) {
    offered = pubOffer.info;
  } else if (pubOffer && !pubOffer.ok) {
    // signing-key.pub is the only key source and it is unusable: signed entries cannot
    // verify (FORMATS.md §5: a malformed key is an invalid signature), nothing is pinned.
    malformed = { code: 'signing-key-pub-malformed', message: `signing-key.pub is malformed: ${pubOffer.message}.` };
  }

  const keyDocUnavailable = f.indexUnavailable || (f.pub === 'unavailable' && offered === null);
  if (conflicting) {
    return { decision: { action: 'report', state: 'conflict', offered, conflicting, unavailable: false }, malformed };
  }
  if (offered) return { decision: { action: f.pin ? 'compare' : 'pin', offered }, malformed };
  // A pinned origin that offers no key: stopped signing, unless its key documents could not be fetched now.
  const unavailable = f.pin !== null && keyDocUnavailable && !malformed;
  const state = f.pin && !unavailable ? 'stopped-signing' : 'none';
  return { decision: { action: 'report', state, offered: null, conflicting: null, unavailable }, malformed };
}

function pubFacts(doc: DocOutcome | null): KeyFacts['pub'] {
  if (!doc) return 'not-fetched';
  if (doc.state === 'present' && doc.bytes) return { text: trimAscii(decodeUtf8(doc.bytes)) };
  if (doc.state === 'unavailable') return 'unavailable';
  return 'absent';
}

type PinOutcome = PinResult | { result: 'unwritable' };

/**
 * pinIfAbsent, and when the pin cannot be written (a commit refused it): compare against the pin
 * as it can still be read, without refreshing lastSeen. A pin that cannot be read or written is
 * `unwritable`: never treated as absent.
 */
async function pinOrCompare(offered: KeyInfo, now: number, ctx: ProbeIO): Promise<PinOutcome> {
  try {
    return ctx.view.pinIfAbsent(offered.key, offered.fingerprint, now);
  } catch (e) {
    ctx.storage?.note('Saving the pinned key', e);
    if (!ctx.storage) throw e;
  }
  let stored: { pin: Pin | null; revoked: string[] };
  try {
    // The compare-and-set that checks revocations was not run: check them here, or trust nothing.
    stored = await ctx.view.storedPin();
  } catch (e) {
    ctx.storage.note('Reading the pinned key', e);
    return { result: 'unwritable' };
  }
  const { pin } = stored;
  if (stored.revoked.includes(offered.fingerprint)) return { result: 'revoked', pin };
  if (!pin) return { result: 'unwritable' };
  if (pin.fingerprint === offered.fingerprint && pin.key === offered.key) return { result: 'match', pin };
  return { result: 'mismatch', pin };
}

/** Whether the index's entries carry signatures: then signing-key.pub is asked (FORMATS.md §9). */
export function entriesSigned(index: ParsedIndex | null): boolean {
  return index !== null && index.candidates.some((c) => c.signature !== null);
}

/**
 * Resolves the key state for one probe, fetching signing-key.pub and pinning on first sight.
 * With a key the administrator pinned for the origin (`managed`), that key is the pin: the
 * stored pin is not read, nothing is pinned on first sight, and any other key is `changed`.
 */
export async function resolveKeys(origin: string, index: ParsedIndex | null, indexUnavailable: boolean, ctx: ProbeIO, managed: ManagedKey | null = null): Promise<KeyOutcome> {
  const diagnostics: Diagnostic[] = [];
  const sources: SourceReport[] = [];
  // The administrator's key stands for the pin (docs/policies.md). It has no first or last sight in
  // this browser: both are 0, and the report says where the pin came from.
  const pin: Pin | null = managed ? { origin: managed.origin, key: managed.key, fingerprint: managed.fingerprint, firstSeen: 0, lastSeen: 0 } : ctx.view.pin();
  const anySignature = entriesSigned(index);
  let pubDoc: DocOutcome | null = null;
  if (anySignature || pin !== null) {
    pubDoc = await fetchDocument('signing-key', origin, ctx);
    sources.push(pubDoc.source);
    diagnostics.push(...pubDoc.diagnostics);
  }
  const { decision, malformed } = decideKey({ index, indexUnavailable, pub: pubFacts(pubDoc), pin }, diagnostics, origin + DOCUMENTS.index.path, origin + DOCUMENTS['signing-key'].path);

  const now = ctx.clock.now();
  let report: KeyReport;
  let verifyKey: KeyInfo | null = null;
  if (decision.action === 'report') {
    report = { state: decision.state, pinned: pin, offered: decision.offered, conflicting: decision.conflicting };
    if (decision.unavailable) {
      report.unavailable = true;
      diagnostics.push(diag('key-unavailable', 'The key documents could not be fetched now; the pin cannot be checked.', { url: origin + DOCUMENTS.index.path }));
    } else if (decision.state === 'conflict') {
      diagnostics.push(diag('key-conflict', `signing_key (${decision.offered?.fingerprint ?? '?'}) and signing-key.pub (${decision.conflicting?.fingerprint ?? '?'}) differ; nothing is pinned.`));
    } else if (decision.state === 'stopped-signing') {
      const by = managed ? ' by your administrator' : '';
      diagnostics.push(diag('key-stopped-signing', `The origin is pinned${by} to ${pin?.fingerprint ?? '?'} but offers no usable key now.`));
    }
  } else if (managed && pin) {
    // The administrator's key is compared, never replaced and never written (a policy is not a pin).
    const offered = decision.offered;
    const matches = offered.key === managed.key;
    report = { state: matches ? 'match' : 'changed', pinned: pin, offered, conflicting: null };
    if (matches) verifyKey = offered;
    else diagnostics.push(diag('key-changed', `Your administrator pinned ${managed.fingerprint} for this origin; it offers ${offered.fingerprint}.`));
  } else {
    const offered = decision.offered;
    const result = await pinOrCompare(offered, now, ctx);
    if (result.result === 'unwritable') {
      // Nothing trustworthy is pinned for this origin right now: nothing verifies against it.
      report = { state: 'none', pinned: null, offered, conflicting: null, unavailable: true };
      diagnostics.push(diag('key-unavailable', `The key ${offered.fingerprint} could not be pinned now (storage failed); nothing is checked against it.`));
    } else if (result.result === 'revoked') {
      // PRODUCT.md §5: a revoked key is never accepted again for this origin, pinned or not.
      report = { state: 'revoked', pinned: result.pin, offered, conflicting: null };
      diagnostics.push(diag('key-revoked', `The origin offers ${offered.fingerprint}, a key you revoked for it; nothing is checked against it.`));
    } else if (result.result === 'pinned') {
      report = { state: 'pinned-now', pinned: result.pin, offered, conflicting: null };
      verifyKey = offered;
      diagnostics.push(diag('key-pinned', `First key seen for this origin pinned: ${offered.fingerprint}.`));
    } else if (result.result === 'match') {
      report = { state: 'match', pinned: result.pin, offered, conflicting: null };
      verifyKey = offered;
    } else {
      report = { state: 'changed', pinned: result.pin, offered, conflicting: null };
      diagnostics.push(diag('key-changed', `Pinned ${result.pin.fingerprint}, offered ${offered.fingerprint}.`));
    }
  }
  if (managed) report.pinnedBy = 'policy';
  if (report.state === 'none' && !report.unavailable && !malformed && anySignature) {
    diagnostics.push(diag('signatures-ignored', 'Entries carry signatures but the origin offers no usable key; they are ignored.', { url: origin + DOCUMENTS.index.path }));
  }
  return { report, verifyKey, malformed, sources, diagnostics };
}
