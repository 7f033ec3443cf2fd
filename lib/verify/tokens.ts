// Token estimate shown next to a skill's size (PRODUCT.md §6).
//
// Rule: one token per 4 bytes of the SKILL.md, rounded up (ceil(bytes / 4)).
// It is a rough, tokenizer-independent figure: English prose runs close to
// 4 bytes per token in common tokenizers, while non-ASCII text uses more bytes
// per character and so is estimated on the high side. An empty file is 0.

export function estimateTokens(bytes: Uint8Array): number {
  return Math.ceil(bytes.length / 4);
}
