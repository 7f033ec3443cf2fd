// The test corpus (test/fixtures/corpus, in the repository). Files are read as raw
// bytes, never as text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS } from '../../support/corpus-sites';

export { CORPUS };

/** Raw bytes of a corpus file (a fresh Uint8Array, not a Buffer view). */
export function corpusBytes(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(join(CORPUS, rel)));
}

export function corpusJson(rel: string): unknown {
  return JSON.parse(new TextDecoder().decode(corpusBytes(rel)));
}

export function hex(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'hex'));
}
