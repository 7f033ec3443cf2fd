// A kind of document in plain words (the popup's sources, the options page's report summary). The
// words come from the kind's row of DOCUMENTS (lib/types/documents.ts); only its label is read here.
import { DOCUMENTS, type DocumentKind } from '../types';
import { t } from './index';

/** "llms.txt", "Skill index", "Signing key (signing-key.pub)", …: a row of DOCUMENTS whose label is no key of the catalogue does not compile here. */
export function documentLabel(kind: DocumentKind): string {
  return t(DOCUMENTS[kind].label);
}
