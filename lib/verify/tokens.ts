// Token estimate shown next to a skill's size (PRODUCT.md §6).
//
// Rule: one token per 4 bytes, rounded up (ceil(bytes / 4)). The report applies it to the
// skill-context block Copy and Insert hand on (header lines included), not to the SKILL.md alone:
// that block is what reaches the agent.
// It is a rough, tokenizer-independent figure: English prose runs close to
// 4 bytes per token in common tokenizers, while non-ASCII text uses more bytes
// per character and so is estimated on the high side. An empty file is 0.

/** The estimate for a length in bytes. */
export function estimateTokenCount(byteLength: number): number {
  return Math.ceil(Math.max(0, byteLength) / 4);
}
