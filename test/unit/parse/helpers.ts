import type { Diagnostic } from '../../../lib/types';

export const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

export const ORIGIN = 'https://example.test';
export const LLMS_URL = 'https://example.test/llms.txt';
export const INDEX_URL = 'https://example.test/.well-known/agent-skills/index.json';
export const LEGACY_URL = 'https://example.test/.well-known/skills/index.json';

export const HEX_A = 'a'.repeat(64);
export const HEX_B = 'b'.repeat(64);

export function codes(diagnostics: readonly Diagnostic[] | undefined): string[] {
  return (diagnostics ?? []).map((d) => d.code);
}
