// The paragraphs every page shows while something loads or when it failed, and a list of diagnostics (technical, in English).
import { t } from '../../lib/i18n';

/** `cls` "state loading" with a `spinner`: a whole view's. */
export function Loading({ text = t('loading'), cls = 'loading', spinner, testId }: { text?: string; cls?: string; spinner?: boolean; testId?: string }) {
  return (
    <p class={cls} aria-busy="true" data-testid={testId}>
      {spinner && <span class="spinner" aria-hidden="true" />}
      {text}
    </p>
  );
}

/** A view that could not be drawn, and why: said to screen readers at once. */
export function Failed({ text }: { text: string }) {
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

type DiagnosticsProps = { items: readonly { level: string; code: string; message: string }[]; leveled: boolean; lang?: string; role?: 'alert'; 'data-testid'?: string };

/** A list of diagnostics; `leveled` gives each line its level's class; the other props are the list's attributes. */
export function Diagnostics({ items, leveled, ...ul }: DiagnosticsProps) {
  return (
    <ul class="diagnostics" {...ul}>
      {items.map((d, i) => (
        <li key={i} class={leveled ? `diag-${d.level}` : undefined}>
          <code>{d.code}</code> {d.message}
        </li>
      ))}
    </ul>
  );
}
