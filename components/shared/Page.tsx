// An extension page's frame (the popup, the library): the header with the brand, the page's own
// buttons and the gear that opens Skillpin's settings in a tab of its own, then the page's content,
// and below it the row of messages (Announcer.tsx).
import type { ComponentChildren } from 'preact';
import { t } from '../../lib/i18n';
import { AnnouncerProvider } from './Announcer';

interface Props {
  title: string;
  optionsUrl: string;
  /** The page's buttons, before the gear. */
  actions?: ComponentChildren;
  /** What the header shows below its buttons. */
  below?: ComponentChildren;
  children: ComponentChildren;
}

export function Page({ title, optionsUrl, actions, below, children }: Props) {
  return (
    <AnnouncerProvider>
      <header class="top">
        <div class="brand">
          <img class="logo" src="/icon/48.png" alt="" width="24" height="24" />
          <h1>{title}</h1>
        </div>
        <div class="top-actions">
          {actions}
          <a class="btn btn-quiet" href={optionsUrl} target="_blank" rel="noopener noreferrer" aria-label={t('open_settings')} title={t('open_settings')}>
            <span aria-hidden="true">⚙</span>
          </a>
        </div>
        {below}
      </header>
      <main>{children}</main>
    </AnnouncerProvider>
  );
}
