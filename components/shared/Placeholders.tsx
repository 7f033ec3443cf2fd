// The paragraphs every page shows while something loads, and a list of diagnostics (technical, in English).
import { t } from '../../lib/i18n';

export function Loading({ text = t('loading') }: { text?: string }) {
  return (
    <p class="loading" aria-busy="true">
      {text}
    </p>
  );
}

/** The lines of a list of diagnostics; `leveled` gives each its level's class. */
export function DiagnosticItems({ items, leveled }: { items: readonly { level: string; code: string; message: string }[]; leveled: boolean }) {
  return (
    <>
      {items.map((d, i) => (
        <li key={i} class={leveled ? `diag-${d.level}` : undefined}>
          <code>{d.code}</code> {d.message}
        </li>
      ))}
    </>
  );
}
