// Markdown that a rendered view hides while the agent reads it: link reference
// definitions that no link uses (the `[//]: # (…)` and `[x]: <> (…)` comment idiom),
// and link titles (shown only on hover). The advisory flags count them and the
// rendered view shows them (lib/render/markdown.ts). Code blocks are skipped: nothing
// in them is a definition or a link. Line by line; no pattern can rescan what it
// passed (every class stops at the character that would start the next match).

export interface HiddenDefinition {
  /** 0-based line number in the text. */
  line: number;
  /** The whole line as written. */
  text: string;
}

export interface HiddenMarkdown {
  unusedDefinitions: HiddenDefinition[];
  /** Titles of inline links and of used definitions. */
  linkTitles: number;
}

/** `[label]: destination "title"` at the start of a line (up to three spaces in). */
const DEFINITION = /^ {0,3}\[([^[\]\n]{1,999})\]:[ \t]*(<[^<>\n]*>|\S+)?(?:[ \t]+("[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$/;
/** Any bracketed text: a possible reference to a definition. */
const BRACKETS = /\[([^[\]\n]{1,999})\]/g;
/** An inline link or image with a title: `](destination "title")`. */
const INLINE_TITLE = /\]\(\s*(?:<[^<>\n]*>|[^\s()<]+)\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\))\s*\)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function labelKey(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function hiddenMarkdown(text: string): HiddenMarkdown {
  const lines = text.split(/\r?\n/);
  const definitions: { line: number; key: string; titled: boolean }[] = [];
  const used = new Set<string>();
  let linkTitles = 0;
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f !== null && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length) fence = null;
      return;
    }
    if (f !== null) {
      fence = f[1] ?? '```';
      return;
    }
    if (/^(?: {4}|\t)/.test(line)) return; // indented code
    const def = DEFINITION.exec(line);
    if (def !== null) {
      definitions.push({ line: i, key: labelKey(def[1] ?? ''), titled: def[3] !== undefined });
      return;
    }
    for (const m of line.matchAll(BRACKETS)) used.add(labelKey(m[1] ?? ''));
    for (const _m of line.matchAll(INLINE_TITLE)) linkTitles++;
  });
  // A used definition's title shows on hover like an inline one; an unused definition is hidden whole.
  linkTitles += definitions.filter((d) => used.has(d.key) && d.titled).length;
  const unusedDefinitions = definitions.filter((d) => !used.has(d.key)).map((d) => ({ line: d.line, text: lines[d.line] ?? '' }));
  return { unusedDefinitions, linkTitles };
}
