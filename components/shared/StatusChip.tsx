import type { SkillStatus } from '../../lib/types';
import { statusLabel, statusTone, toneMark } from './status';

interface Props {
  status: SkillStatus;
  /** The stable diagnostic code behind the status, shown on hover. */
  code?: string;
}

/** A status in plain words; the exact code is in the tooltip and in the accessible description. */
export function StatusChip({ status, code }: Props) {
  const tone = statusTone(status);
  const title = code && code !== status ? `${status} (${code})` : status;
  return (
    <span class={`chip chip-${tone}`} title={title} data-status={status}>
      <span class="chip-mark" aria-hidden="true">
        {toneMark(tone)}
      </span>
      {statusLabel(status)}
      <span class="visually-hidden"> ({title})</span>
    </span>
  );
}
