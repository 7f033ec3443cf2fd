// The status of a skill in plain words (PRODUCT.md §4), for every part of Skillpin that names one:
// the popup's chips, the options page's tables, the background's refusals. The status itself always
// comes from the report; these are only its words, from the catalogue.
import { STATUSES, type SkillStatus } from '../types';
import { t, type MessageKey } from './index';

/** A status's message key: a row of STATUSES whose label is no key of the catalogue does not compile here. */
function labelOf(status: SkillStatus): MessageKey {
  return STATUSES[status].label;
}

/** "Verified & signed", "Content changed", …; an unknown status is shown as its code. */
export function statusWords(status: SkillStatus | string): string {
  const key = Object.hasOwn(STATUSES, status) ? labelOf(status as SkillStatus) : null;
  return key ? t(key) : status;
}
