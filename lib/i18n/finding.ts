// What a finding of the review says a skill can do, in the user's words (PRODUCT.md §6.1): one sentence
// per kind, for the pages and for the background's refusals alike.
import { FINDING_KINDS, type FindingKind } from '../types';
import { t } from './index';

/** The sentence that says what a skill with a finding of this kind can do. A row of FINDING_KINDS whose words are no key of the catalogue does not compile here. */
export function kindWords(kind: FindingKind): string {
  return t(FINDING_KINDS[kind]);
}
