// Every fuzz target, in the order docs/reliability.md lists them.
import { decodeTarget } from './targets/decode';
import { frontmatterTarget } from './targets/frontmatter';
import { indexJsonTarget } from './targets/index-json';
import { llmsTxtTarget } from './targets/llms-txt';
import { mergeTarget } from './targets/merge';
import { resolveUrlTarget } from './targets/resolve-url';
import { reviewTarget } from './targets/review';
import { reviewFrontmatterTarget } from './targets/review-frontmatter';
import { tarGzTarget } from './targets/tar-gz';
import { zipTarget } from './targets/zip';
import type { FuzzTarget } from './types';

export const FUZZ_TARGETS: readonly FuzzTarget[] = [
  llmsTxtTarget,
  indexJsonTarget,
  frontmatterTarget,
  resolveUrlTarget,
  mergeTarget,
  decodeTarget,
  zipTarget,
  tarGzTarget,
  reviewTarget,
  reviewFrontmatterTarget,
];
