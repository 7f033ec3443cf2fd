// The status of a skill in plain words (PRODUCT.md §4), for every part of Skillpin that names one:
// the popup's chips, the options page's tables, the background's refusals. The status itself always
// comes from the report; these are only its words, from the catalogue.
import { STATUSES, type SkillStatus } from '../types';
import { t } from './index';

/** "Verified & signed", "Content changed", …; an unknown status is shown as its code. A row of STATUSES whose label is no key of the catalogue does not compile here. */
export function statusWords(status: SkillStatus | string): string {
  return Object.hasOwn(STATUSES, status) ? t(STATUSES[status as SkillStatus].label) : status;
}
