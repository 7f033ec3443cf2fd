// The common SKILL.md frontmatter read without the YAML parser: one `key: value` per line, each
// value a double-quoted string of printable ASCII without escapes, or a plain scalar that starts
// with a letter and holds none of YAML's indicators. For exactly these lines YAML (1.2, core
// schema) gives a mapping of strings, which is what this returns; anything else (comments,
// numbers, true/false/null, colons, escapes, tabs, CR, repeated keys, blank lines, nesting)
// returns null and the caller runs the full parser (lib/parse/skill-md.ts). The full parse cost
// about 100 µs per SKILL.md, the largest share of parsing a skill (docs/benchmarks.md, the engine rows).

const LINE = /^([A-Za-z][A-Za-z0-9_-]{0,63}): (.*)$/;
/** Printable ASCII but `"` and `\`. */
const QUOTED = /^"([ !#-[\]-~]*)"$/;
/** A plain scalar: starts with a letter, no indicator that could end or change it, no trailing space. */
const PLAIN = /^[A-Za-z](?:[A-Za-z0-9 ._,()/+'-]*[A-Za-z0-9._)/+'-])?$/;
/** Plain scalars the core schema reads as booleans or null (numbers never start with a letter). */
const RESERVED = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);
const MAX_LINES = 64;

/** The mapping of the frontmatter block (the text between the `---` lines), or null when it is not this simple form. */
export function simpleFrontmatter(block: string): Record<string, string> | null {
  if (block.length === 0) return null;
  const lines = block.split('\n');
  // The block ends with the newline before the closing `---`.
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0 || lines.length > MAX_LINES) return null;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of lines) {
    const m = LINE.exec(line);
    if (!m) return null;
    const key = m[1] as string;
    const raw = m[2] as string;
    // A repeated key is a YAML error; true/null as keys are not strings in the core schema.
    if (Object.hasOwn(out, key) || RESERVED.has(key)) return null;
    // Plain: no ` #` comment, no `: ` mapping, no quote inside a word start (`'` only inside).
    if (PLAIN.test(raw) && !RESERVED.has(raw) && !raw.includes(" '") && !raw.includes('  ')) {
      out[key] = raw;
      continue;
    }
    const q = QUOTED.exec(raw);
    if (!q) return null;
    out[key] = q[1] as string;
  }
  return out;
}
