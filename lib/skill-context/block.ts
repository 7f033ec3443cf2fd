// The skill-context block (PRODUCT.md §6): the one text every hand-off path gives to
// a chat agent — popup Copy, popup Insert, and the context menu.
//
// Shape (lines joined with "\n"):
//
//   === Skill context (Skillpin) ===
//   Origin: <origin>
//   Skill: <name>
//   URL: <url>
//   SHA-256: <digestLf> (LF-normalized)
//   SHA-256 of the raw bytes: <digestRaw>        (only when it differs)
//   Signature: <state> (<what the state means>)
//   Key fingerprint: <fingerprint | none>
//   Note: <one line: third-party instructions published by <origin>, not from the user>
//   <<<BEGIN SKILL.md skillpin-<tag>>>>
//   <SKILL.md decoded as UTF-8, verbatim: BOM, CR LF and everything else kept>
//   <<<END SKILL.md skillpin-<tag>>>>
//
// The body is followed by "\n" before the END line only when it does not already end
// with one, so the END marker always starts a line.
//
// The short header (Settings.shortHeader) keeps the title, the origin and the key
// fingerprint only:
//
//   === Skill context (Skillpin) ===
//   Origin: <origin>
//   Key fingerprint: <fingerprint | none>
//   <<<BEGIN SKILL.md skillpin-<tag>>>>
//   …
//
// Delimiters cannot be forged by the content: <tag> starts as the first 16 hex digits
// of the LF digest, and if the string "skillpin-<tag>" occurs anywhere in the body, a
// counter is appended ("-1", "-2", …) until it does not. The body therefore never
// contains the BEGIN or END marker of its own block, so no SKILL.md can end the block
// early or open a fake one. The choice depends only on the input: the same input
// always gives the same block.
//
// Header fields come from the publisher (the name) or from URLs: control characters,
// line and paragraph separators and bidi controls are replaced so that no field can
// add a line to the header.

import { display } from '../render/display';

export interface SkillContextInput {
  origin: string;
  name: string;
  url: string;
  digestLf: string;
  digestRaw: string;
  signatureState: 'verified-signed' | 'verified' | 'unverified';
  keyFingerprint: string | null;
  bytes: Uint8Array;
  /** `short`: the origin and the key fingerprint only (Settings.shortHeader); the full header by default. */
  header?: ContextHeader;
}

/** Which header the block carries (Settings.shortHeader chooses). */
export type ContextHeader = 'full' | 'short';

export const CONTEXT_TITLE = '=== Skill context (Skillpin) ===';

const SIGNATURE_NOTES: Record<SkillContextInput['signatureState'], string> = {
  'verified-signed': 'sha256 matches what the origin declared; ed25519 signature verified under the key pinned for this origin',
  verified: 'sha256 matches what the origin declared; the origin does not sign its skills',
  unverified: 'the origin declared no sha256; this is the digest of the bytes the user approved',
};

/** Replaces characters that could break a header line or reorder its display. */
// C0/C1 controls, DEL and line/paragraph separators become spaces; bidi controls (U+061C
// included) and invisible characters become their visible code points (lib/render/display.ts).
export const headerSafe = (value: string, maxLength = 512): string => display(value, maxLength);

/** The header lines of the block, without the note and the delimiters (for the UI). */
export function contextHeaderLines(input: Omit<SkillContextInput, 'bytes'>): string[] {
  const lf = headerSafe(input.digestLf, 128);
  const raw = headerSafe(input.digestRaw, 128);
  const lines = [`Origin: ${headerSafe(input.origin)}`, `Skill: ${headerSafe(input.name)}`, `URL: ${headerSafe(input.url, 2048)}`, `SHA-256: ${lf} (LF-normalized)`];
  if (raw.toLowerCase() !== lf.toLowerCase()) lines.push(`SHA-256 of the raw bytes: ${raw}`);
  const state = SIGNATURE_NOTES[input.signatureState] === undefined ? 'unverified' : input.signatureState;
  lines.push(`Signature: ${state} (${SIGNATURE_NOTES[state]})`, `Key fingerprint: ${input.keyFingerprint === null ? 'none' : headerSafe(input.keyFingerprint, 128)}`);
  return lines;
}

/** The short header's lines: the origin and the key fingerprint. */
export function shortHeaderLines(input: Pick<SkillContextInput, 'origin' | 'keyFingerprint'>): string[] {
  return [`Origin: ${headerSafe(input.origin)}`, `Key fingerprint: ${input.keyFingerprint === null ? 'none' : headerSafe(input.keyFingerprint, 128)}`];
}

/** The one-line note naming the origin the instructions come from. */
export function contextNote(origin: string): string {
  return `Note: the text between the BEGIN and END markers below is third-party instructions published by ${headerSafe(origin)}; it is not written by the user.`;
}

/** The delimiter tag for a body: derived from the digest, lengthened until the body cannot contain it. */
export function delimiterTag(digestLf: string, body: string): string {
  const hex = digestLf.toLowerCase().replace(/[^0-9a-f]/g, '');
  const base = hex.length >= 16 ? hex.slice(0, 16) : fallbackTag(body);
  let tag = base;
  for (let n = 1; body.includes(`skillpin-${tag}`); n++) tag = `${base}-${n}`;
  return tag;
}

/** A deterministic 16-hex tag when the digest is unusable (FNV-1a over the body, two seeds). */
function fallbackTag(body: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ body.length;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** SKILL.md bytes as text: UTF-8, BOM kept, invalid sequences as U+FFFD (never throws). */
export function decodeSkillBody(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true, fatal: false }).decode(bytes);
}

/** The block in its three parts: everything before the body (its last line ended), the body, and what follows it. */
function contextParts(input: SkillContextInput): { head: string; body: string; tail: string } {
  const body = decodeSkillBody(input.bytes);
  const tag = delimiterTag(input.digestLf, body);
  const begin = `<<<BEGIN SKILL.md skillpin-${tag}>>>`;
  const end = `<<<END SKILL.md skillpin-${tag}>>>`;
  const separator = body.length === 0 || body.endsWith('\n') ? '' : '\n';
  const lines = input.header === 'short' ? shortHeaderLines(input) : [...contextHeaderLines(input), contextNote(input.origin)];
  return { head: [CONTEXT_TITLE, ...lines, begin].join('\n') + '\n', body, tail: separator + end };
}

/** Builds the skill-context block (see the shape at the top of this file). */
export function buildSkillContext(input: SkillContextInput): string {
  const { head, body, tail } = contextParts(input);
  return head + body + tail;
}

/**
 * The length in UTF-8 bytes of a string as TextEncoder writes it: a lone surrogate becomes
 * U+FFFD (3 bytes), a surrogate pair one 4-byte sequence.
 */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * The size in UTF-8 bytes of the block buildSkillContext makes: what a chat agent receives. Counted,
 * not encoded: the header and the body's decoded text (invalid bytes as U+FFFD) measured as
 * TextEncoder would write them.
 */
export function skillContextSize(input: SkillContextInput): number {
  const { skill, header } = skillContextBreakdown(input);
  return skill + header;
}

/**
 * The block's size in its two parts, in UTF-8 bytes: the skill (SKILL.md as decoded text) and
 * Skillpin's header around it (title, header lines, note, delimiters). Their sum is the length of
 * buildSkillContext's block.
 */
export function skillContextBreakdown(input: SkillContextInput): { skill: number; header: number } {
  const { head, body, tail } = contextParts(input);
  return { skill: utf8Length(body), header: utf8Length(head) + utf8Length(tail) };
}
