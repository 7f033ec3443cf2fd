// The signature state of one skill's verified bytes under the origin's key (PRODUCT.md §2.7,
// §5; FORMATS.md §5, §10 items 7–8). A signature already verified for the same bytes under the
// same key is not verified again.
import type { MergedSkill } from '../parse/merge';
import type { StoredSkill } from '../store/records';
import type { SignatureState } from '../types';
import { lfNormalize } from '../verify/digest';
import { verifySignatureB64 } from '../verify/ed25519';
import type { KeyOutcome } from './keys';

export interface SignatureContext {
  key: KeyOutcome;
  /** A forced probe verifies again whatever is remembered. */
  force: boolean;
}

export type Verified = NonNullable<StoredSkill['signatureVerified']>;

export interface SignatureCheck {
  state: SignatureState;
  message: string | null;
  failure: { code: string; message: string } | null;
  /** For a valid signature: the key fingerprint and signature to remember with the bytes. */
  verified?: Verified;
}

export function sameVerified(a: StoredSkill['signatureVerified'], b: Verified): boolean {
  return a !== undefined && a.fingerprint === b.fingerprint && a.signature === b.signature;
}

/**
 * The signature state of `skillMd`. `known` is the stored record with the same LF digest:
 * when it remembers this very signature verified under this very key, the bytes are not
 * verified again (PRODUCT.md §2.7), except in a forced probe.
 */
export async function signatureOf(ctx: SignatureContext, merged: MergedSkill, skillMd: Uint8Array, digestLf: string, known: StoredSkill | null): Promise<SignatureCheck> {
  const k = ctx.key;
  const sig = merged.signature;
  const st = k.report.state;
  if (k.report.unavailable || st === 'changed' || st === 'conflict' || st === 'stopped-signing') {
    return { state: 'not-checked', message: 'Not checked: the origin key does not match its pin.', failure: null };
  }
  if (k.malformed) {
    if (sig === null) return { state: 'missing', message: 'This entry has no signature.', failure: null };
    return { state: 'invalid', message: k.malformed.message, failure: { code: 'signing-key-malformed', message: k.malformed.message } };
  }
  if (k.verifyKey) {
    if (sig === null) return { state: 'missing', message: 'The origin signs, but this entry has no signature.', failure: null };
    const verified: Verified = { fingerprint: k.verifyKey.fingerprint, signature: sig };
    const valid: SignatureCheck = { state: 'valid', message: `Verified under ${k.verifyKey.fingerprint}.`, failure: null, verified };
    if (!ctx.force && known !== null && known.digestLf === digestLf && sameVerified(known.signatureVerified, verified)) return valid;
    const check = await verifySignatureB64(k.verifyKey.key, sig, lfNormalize(skillMd));
    if (check.ok) return valid;
    const code = check.code === 'signature-base64' || check.code === 'signature-length' ? 'signature-malformed' : 'bad-signature';
    return { state: 'invalid', message: check.message, failure: { code, message: `The signature is invalid: ${check.message}.` } };
  }
  return { state: 'not-signing', message: sig === null ? null : 'The origin offers no usable key; the signature is ignored.', failure: null };
}
