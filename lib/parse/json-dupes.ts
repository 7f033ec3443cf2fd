// Duplicate object keys in JSON text. `JSON.parse` silently keeps the last value of a
// repeated key; a reviewer reading the file may see the first. This single pass reports them.
// It expects text that `JSON.parse` has already accepted.

export interface DuplicateKey {
  key: string;
  /** 0-based character offset of the repeated key in the text. */
  offset: number;
}

function decodeKey(token: string): string | null {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Lists repeated keys within one object, in order of appearance (at most `limit`). */
export function findDuplicateKeys(text: string, limit = 20): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  // One entry per open container: a key set for objects, null for arrays.
  const stack: (Set<string> | null)[] = [];
  // The last string token, decoded only if a ':' shows it to be a key.
  let pendingStart = -1;
  let pendingEnd = -1;
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
      i += 1;
      pendingStart = start;
      pendingEnd = i;
      continue;
    }
    if (ch === 0x7b /* { */) stack.push(new Set<string>());
    else if (ch === 0x5b /* [ */) stack.push(null);
    else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) stack.pop();
    else if (ch === 0x3a /* : */) {
      const keys = stack[stack.length - 1];
      const key = keys && pendingStart >= 0 ? decodeKey(text.slice(pendingStart, pendingEnd)) : null;
      if (keys && key !== null) {
        if (keys.has(key)) found.push({ key, offset: pendingStart });
        else keys.add(key);
      }
      pendingStart = -1;
    } else if (ch === 0x2c /* , */) {
      pendingStart = -1;
    }
    i += 1;
  }
  return found;
}
