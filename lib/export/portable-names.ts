// File names an export must not hold because Windows or macOS cannot unpack them: the
// device names Windows reserves (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9 and the superscript
// COM¹–COM³, LPT¹–LPT³, with or without an extension), the characters : * ? " < > | (":" is also
// the separator of the macOS Finder), control characters, and a name that ends in a dot or a space
// (Windows drops them, so the file unpacks under another name or not at all). The rules are those
// of Microsoft's "Naming Files, Paths, and Namespaces" (learn.microsoft.com/windows/win32/fileio/naming-a-file).
// Pure: which rule each path breaks, and with what.

export type PortableCode = 'path-reserved-name' | 'path-reserved-character' | 'path-control-character' | 'path-trailing-dot-space';

/** The order in which the rules are reported. */
const ORDER: readonly PortableCode[] = ['path-reserved-name', 'path-reserved-character', 'path-control-character', 'path-trailing-dot-space'];

const RESERVED = /^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i;
const FORBIDDEN_CHARACTER = /[:*?"<>|]/;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The device name a path segment stands for on Windows, or null. Windows reads the part before the
 * first dot, without trailing spaces, without regard to case: `con`, `CON.txt` and `Nul .tar.gz` all are.
 */
export function reservedDeviceName(segment: string): string | null {
  const stem = (segment.split('.')[0] ?? '').replace(/ +$/, '');
  return RESERVED.test(stem) ? stem : null;
}

export interface PortableFinding {
  code: PortableCode;
  /** The path that breaks the rule. */
  path: string;
  /** What in it breaks the rule: the device name, the character (a control character as U+XXXX), or the segment. */
  detail: string;
}

function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first finding of each rule for one `/`-separated path. */
export function portableFindings(path: string): PortableFinding[] {
  const found = new Map<PortableCode, string>();
  const note = (code: PortableCode, detail: string): void => {
    if (!found.has(code)) found.set(code, detail);
  };
  for (const segment of path.split('/')) {
    const device = reservedDeviceName(segment);
    if (device !== null) note('path-reserved-name', device);
    const character = FORBIDDEN_CHARACTER.exec(segment);
    if (character) note('path-reserved-character', character[0]);
    const control = CONTROL_CHARACTER.exec(segment);
    if (control) note('path-control-character', codePoint(control[0]));
    if (/[. ]$/.test(segment)) note('path-trailing-dot-space', segment);
  }
  return ORDER.filter((code) => found.has(code)).map((code) => ({ code, path, detail: found.get(code) as string }));
}

/** Every finding over `paths`, grouped by rule: rules in a fixed order, paths in the given order. */
export function portableProblems(paths: readonly string[]): Map<PortableCode, PortableFinding[]> {
  const byRule = new Map<PortableCode, PortableFinding[]>(ORDER.map((code) => [code, []]));
  for (const path of paths) for (const f of portableFindings(path)) byRule.get(f.code)?.push(f);
  return new Map([...byRule].filter(([, list]) => list.length > 0));
}
