// Advisory content flags (PRODUCT.md §6). They never replace the opt-in; they
// point the user at things worth a look before approving. Every check is a
// single pass over the text or a regular expression without nested
// quantifiers, so the whole function runs in linear time.

import type { AdvisoryFlag } from '../types';
import { hiddenMarkdown } from './hidden-markdown';

/** Lines longer than this many UTF-16 code units are flagged. */
export const LONG_LINE = 1000;

/** Bidirectional controls: embeddings/overrides, isolates, marks. */
export function isBidi(c: number): boolean {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f || c === 0x061c;
}

/**
 * Characters that render as nothing (or nearly) and can hide text from a
 * reader while an agent still reads them. Variation selectors U+FE00–FE0F
 * are left out: emoji use them everywhere. The supplement U+E0100–E01EF,
 * which has no such everyday use, is included.
 */
export function isInvisible(cp: number): boolean {
  return (
    cp === 0x00ad || // soft hyphen
    cp === 0x034f || // combining grapheme joiner
    cp === 0x115f ||
    cp === 0x1160 || // hangul fillers
    cp === 0x17b4 ||
    cp === 0x17b5 || // khmer inherent vowels
    cp === 0x180e || // mongolian vowel separator
    (cp >= 0x200b && cp <= 0x200d) || // zero-width space / non-joiner / joiner
    (cp >= 0x2060 && cp <= 0x2064) || // word joiner, invisible operators
    cp === 0x3164 ||
    cp === 0xffa0 || // hangul fillers
    (cp >= 0xfff9 && cp <= 0xfffb) || // interlinear annotation
    cp === 0xfeff || // zero-width no-break space (BOM)
    (cp >= 0x1d173 && cp <= 0x1d17a) || // musical formatting
    (cp >= 0xe0000 && cp <= 0xe007f) || // tag characters
    (cp >= 0xe0100 && cp <= 0xe01ef) // variation selectors supplement
  );
}

export const INJECTION_PATTERNS: RegExp[] = [
  // "ignore all previous instructions", "disregard the above prompt", "forget your prior rules"
  /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|and|every|each|of|the|your|my|these|those|previous|prior)\s+){0,5}(?:previous|prior|above|earlier|preceding|foregoing|former|original|system|initial)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|messages|context|commands|constraints)\b/i,
  // "do not follow your previous instructions"
  /\b(?:do\s+not|don't|never)\s+(?:follow|obey|heed)\s+(?:(?:all|any|the|your|my)\s+){0,2}(?:previous|prior|above|earlier|original|system)\s+(?:instructions?|prompts?|rules|directions|guidelines)\b/i,
  // "your new instructions are", "from now on you will ignore"
  /\b(?:your\s+new\s+instructions\s+are|new\s+system\s+prompt\s*:|from\s+now\s+on,?\s+(?:you\s+(?:will|must)\s+)?ignore)\b/i,
  // "reveal your system prompt"
  /\b(?:reveal|print|show|output|repeat|leak)\s+(?:(?:me|us|the|your)\s+){0,2}(?:system|hidden|initial)\s+(?:prompt|instructions)\b/i,
];

/**
 * The same patterns with the global flag, made once: `String.prototype.match` counts them from the
 * start of the text each time (none of the patterns matches the empty string).
 */
const INJECTION_GLOBAL: RegExp[] = INJECTION_PATTERNS.map((re) => new RegExp(re.source, 'gi'));

function originOf(raw: string, base: string | null): string | null {
  try {
    const u = base === null ? new URL(raw) : new URL(raw, base);
    if (u.protocol === 'mailto:' || u.protocol === 'tel:') return null;
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
  } catch {
    return null;
  }
}

/** Absolute http(s) URLs anywhere in the text. */
const BARE_URL = /\bhttps?:\/\/[^\s<>"'`()[\]{}|\\^]+/gi;
/** The target of a markdown inline link or image: "](target". */
const MD_TARGET = /\]\(\s*<?([^\s()<>]+)/g;
/** Reference definitions: "[id]: target" at the start of a line. */
const MD_REFDEF = /^ {0,3}\[[^\]\n]{1,999}\]:[ \t]*<?([^\s<>]+)/gm;
/** HTML attributes that load or link: href=, src=. */
const HTML_ATTR = /\b(?:href|src)\s*=\s*["']?([^\s"'<>]+)/gi;

function foreignLinks(text: string, origin: string): { count: number; origins: string[] } {
  let own: string;
  let base: string | null;
  try {
    own = new URL(origin).origin;
    base = own + '/';
  } catch {
    // Without a usable origin only absolute links can be judged.
    own = origin;
    base = null;
  }
  const origins = new Set<string>();
  const seenAt = new Set<number>();
  let count = 0;
  const consider = (raw: string, at: number): void => {
    if (seenAt.has(at)) return;
    seenAt.add(at);
    const o = originOf(raw, base);
    if (o !== null && o !== own) {
      count++;
      origins.add(o);
    }
  };
  for (const re of [MD_TARGET, MD_REFDEF, HTML_ATTR]) {
    for (const m of text.matchAll(re)) {
      const target = m[1];
      if (target === undefined) continue;
      consider(target, (m.index ?? 0) + m[0].length - target.length);
    }
  }
  for (const m of text.matchAll(BARE_URL)) consider(m[0], m.index ?? 0);
  return { count, origins: [...origins] };
}

/** Frontmatter keys by which a skill reaches beyond text: tools it may run, servers it connects. */
const REACH_KEYS = ['allowed-tools', 'allowed_tools', 'allowedtools', 'tools', 'mcp', 'mcpservers', 'mcp-servers', 'mcp_servers', 'servers', 'hooks'];

/** The frontmatter keys (of REACH_KEYS, any case) that carry a value. */
export function reachKeys(data: Record<string, unknown> | null | undefined): string[] {
  if (data === null || data === undefined) return [];
  return Object.keys(data).filter((k) => REACH_KEYS.includes(k.toLowerCase()) && data[k] !== null && data[k] !== undefined && data[k] !== '');
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 80)}…` : v;
  if (Array.isArray(v))
    return v
      .slice(0, 8)
      .map((x) => (typeof x === 'string' ? x : typeof x === 'object' && x !== null ? Object.keys(x).join('/') : String(x)))
      .join(', ');
  if (typeof v === 'object' && v !== null) return Object.keys(v).slice(0, 8).join(', ');
  return String(v);
}

export interface AdvisoryOptions {
  /** The index's executable tool path, if any. */
  tool?: string | null;
  /** The SKILL.md frontmatter mapping, if any. */
  frontmatter?: Record<string, unknown> | null;
  /** The SKILL.md starts a frontmatter block that cannot be read: taken as asking for tools. */
  frontmatterUnreadable?: boolean;
}

/** Advisory flags for a skill's text. `origin` is the publishing origin. */
export function advisoryFlags(text: string, origin: string, opts?: AdvisoryOptions): AdvisoryFlag[] {
  const flags: AdvisoryFlag[] = [];

  // One pass: invisible characters, bidi controls, long lines, and the text without the invisible
  // and bidi characters (a leading BOM included), so they cannot split a phrase past the patterns.
  let invisible = 0;
  let bidi = 0;
  let longLines = 0;
  let lineLength = 0;
  let visible = '';
  let visibleFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) {
      if (lineLength > LONG_LINE) longLines++;
      lineLength = 0;
      continue;
    }
    lineLength++;
    const start = i;
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      cp = text.codePointAt(i) as number;
      if (cp > 0xffff) {
        i++;
        lineLength++;
      }
    }
    // Every hidden character is outside ASCII: the two tests run for those alone.
    if (cp < 0x80) continue;
    if (isBidi(cp)) {
      bidi++;
    } else if (isInvisible(cp)) {
      // A single BOM at the very start is an encoding mark, not hidden text.
      if (!(cp === 0xfeff && i === 0)) invisible++;
    } else {
      continue;
    }
    visible += text.slice(visibleFrom, start);
    visibleFrom = i + 1;
  }
  if (lineLength > LONG_LINE) longLines++;
  visible += text.slice(visibleFrom);

  if (invisible > 0) flags.push({ code: 'invisible-unicode', message: `${invisible} invisible Unicode character(s) (zero-width, tag or similar)`, count: invisible });
  if (bidi > 0) flags.push({ code: 'bidi-control', message: `${bidi} bidirectional control character(s) that can reorder how text displays`, count: bidi });

  const comments = text.split('<!--').length - 1;
  if (comments > 0) flags.push({ code: 'html-comment', message: `${comments} HTML comment(s), hidden when rendered`, count: comments });
  if (longLines > 0) flags.push({ code: 'long-line', message: `${longLines} line(s) longer than ${LONG_LINE} characters`, count: longLines });

  let injections = 0;
  for (const re of INJECTION_GLOBAL) injections += visible.match(re)?.length ?? 0;
  if (injections > 0) {
    flags.push({
      code: 'ignore-previous-instructions',
      message: `${injections} phrase(s) telling the agent to ignore earlier instructions or reveal its prompt`,
      count: injections,
    });
  }

  const links = foreignLinks(text, origin);
  if (links.count > 0) {
    const shown = links.origins.slice(0, 5).join(', ') + (links.origins.length > 5 ? ', …' : '');
    flags.push({ code: 'cross-origin-link', message: `${links.count} link(s) to other origins: ${shown}`, count: links.count });
  }

  const hidden = hiddenMarkdown(text);
  const hiddenCount = hidden.unusedDefinitions.length + hidden.linkTitles;
  if (hiddenCount > 0) {
    const parts: string[] = [];
    if (hidden.unusedDefinitions.length > 0) parts.push(`${hidden.unusedDefinitions.length} link definition(s) no link uses (a way to hide comments)`);
    if (hidden.linkTitles > 0) parts.push(`${hidden.linkTitles} link title(s), shown only on hover`);
    flags.push({ code: 'hidden-markdown', message: `Text a markdown view hides: ${parts.join('; ')}`, count: hiddenCount });
  }

  const tool = opts?.tool;
  if (typeof tool === 'string' && tool.length > 0) flags.push({ code: 'executable-tool', message: `declares an executable tool (${tool}), not run by Skillpin` });
  const reach = reachKeys(opts?.frontmatter);
  if (opts?.frontmatterUnreadable === true) {
    flags.push({ code: 'declares-tools', message: 'The frontmatter cannot be read, so what it asks for is unknown: Skillpin treats it as asking for tools', count: 1 });
  } else if (reach.length > 0) {
    const data = opts?.frontmatter ?? {};
    const shown = reach.map((k) => `${k}: ${describeValue(data[k])}`).join('; ');
    flags.push({ code: 'declares-tools', message: `The frontmatter asks for tools or servers beyond text (${shown}); an agent that honours it may run them`, count: reach.length });
  }
  return flags;
}
