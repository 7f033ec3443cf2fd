// Duplicate object keys in JSON text. `JSON.parse` silently keeps the last value of a
// repeated key; a reviewer reading the file may see the first. This single pass reports them.
// It expects text that `JSON.parse` has already accepted.

export interface DuplicateKey {
  key: string;
  /** 0-based character offset of the repeated key in the text. */
  offset: number;
}

/** Lists repeated keys within one object, in order of appearance (at most `limit`). */
export function findDuplicateKeys(text: string, limit = 20): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  // One entry per open container: a key set for objects, null for arrays.
  const stack: (Set<string> | null)[] = [];
  let pendingString: string | null = null;
  let pendingOffset = 0;
  let i = 0;
  const n = text.length;
  while (i < n && found.length < limit) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      const start = i;
      i += 1;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \ */) i += 2;
        else if (c === 0x22) break;
        else i += 1;
      }
      const token = text.slice(start, i + 1);
      i += 1;
      try {
        const value: unknown = JSON.parse(token);
        pendingString = typeof value === 'string' ? value : null;
      } catch {
        pendingString = null;
      }
      pendingOffset = start;
      continue;
    }
    if (ch === 0x7b /* { */) stack.push(new Set<string>());
    else if (ch === 0x5b /* [ */) stack.push(null);
    else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) stack.pop();
    else if (ch === 0x3a /* : */) {
      const keys = stack[stack.length - 1];
      if (keys && pendingString !== null) {
        if (keys.has(pendingString)) found.push({ key: pendingString, offset: pendingOffset });
        else keys.add(pendingString);
      }
      pendingString = null;
    } else if (ch === 0x2c /* , */) {
      pendingString = null;
    }
    i += 1;
  }
  return found;
}
