// A skill's status as a chip: its words and marker from the status table (status.ts), and in its
// title and accessible description what verification proves under trust on first use: the bytes
// are the ones the site declared, signed with the key Skillpin first saw for the site on a given
// day. It never says "safe": what the skill can do is said apart (PRODUCT.md §6.1).
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { OriginReport, SkillStatus } from '../../lib/types';
import { formatDate } from './format';
import { statusExplanation, statusLabel, statusTone, TONE_MARK } from './status';

/** The key pinned for the site the chips are about, when the page knows it. */
const PinnedKey = createContext<{ firstSeen: number } | null>(null);

/** Gives the chips below it the site's pinned key (its first sight), from the report. */
export function PinnedKeyOf({ report, children }: { report: OriginReport; children: ComponentChildren }) {
  const pinned = report.key?.pinned ?? null;
  return <PinnedKey.Provider value={pinned ? { firstSeen: pinned.firstSeen } : null}>{children}</PinnedKey.Provider>;
}

/** What a status proves, in one sentence: for a signed skill, with the day its key was first seen. */
export function statusProof(status: SkillStatus, pinned: { firstSeen: number } | null): string {
  if (status === 'verified-signed' && pinned) return t('status_proves_signed_since', formatDate(pinned.firstSeen));
  return statusExplanation(status);
}

/**
 * A status in plain words; what it proves and the exact code are in the tooltip and the accessible
 * description. `code`: the stable diagnostic code behind the status, shown on hover.
 */
export function StatusChip({ status, code }: { status: SkillStatus; code?: string }) {
  const pinned = useContext(PinnedKey);
  const tone = statusTone(status);
  const codes = code && code !== status ? `${status} (${code})` : status;
  // A verified status says what it proves; the others say their code (their sentence is beside them).
  const title = tone === 'proven' ? `${statusProof(status, pinned)} [${codes}]` : codes;
  return (
    <span class={`chip chip-${tone}`} title={title} data-status={status}>
      <span class="chip-mark" aria-hidden="true">
        {TONE_MARK[tone]}
      </span>
      {statusLabel(status)}
      <span class="visually-hidden"> ({title})</span>
    </span>
  );
}
