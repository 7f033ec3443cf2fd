// The options page: settings, pins, approvals, desktop agents, export/import and diagnostics.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { AnnouncerProvider } from '../shared/Announcer';
import { ApprovalsSection } from './ApprovalsSection';
import { DesktopSection } from './DesktopSection';
import { DiagnosticsSection } from './DiagnosticsSection';
import { KeyHistorySection } from './KeyHistorySection';
import type { OptionsEnv } from './env';
import { PinsSection } from './PinsSection';
import { SettingsSection } from './SettingsSection';
import { ShortcutsSection } from './ShortcutsSection';
import { TransferSection } from './TransferSection';

function Body({ env, initialOrigin }: { env: OptionsEnv; initialOrigin?: string | null }) {
  const [version, setVersion] = useState(0);
  const [settingsVersion, setSettingsVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  // Changes made elsewhere (another tab; an import changes pins and approvals): the lists reload, the settings form follows
  // them unless it holds unsaved edits (SettingsSection).
  useEffect(
    () =>
      env.watchChanges?.((kind) => {
        if (kind === 'settings') setSettingsVersion((v) => v + 1);
        else changed();
      }),
    [env],
  );
  const sections: { id: string; title: string; intro?: string; body: ComponentChildren }[] = [
    { id: 'settings', title: t('settings_title'), body: <SettingsSection env={env} version={settingsVersion} /> },
    {
      id: 'pins',
      title: t('pins_title'),
      intro: t('pins_intro'),
      body: (
        <>
          <PinsSection env={env} version={version} onChanged={changed} />
          <h3 id="h-key-history">{t('history_title')}</h3>
          <p class="hint">{t('history_intro')}</p>
          <KeyHistorySection env={env} version={version} onChanged={changed} />
        </>
      ),
    },
    { id: 'approvals', title: t('approvals_title'), body: <ApprovalsSection env={env} version={version} onChanged={changed} /> },
    { id: 'desktop', title: t('desktop_title'), body: <DesktopSection env={env} version={version + settingsVersion} /> },
    { id: 'transfer', title: t('transfer_title'), intro: t('transfer_intro'), body: <TransferSection env={env} onChanged={changed} /> },
    ...(env.shortcuts ? [{ id: 'shortcuts', title: t('shortcuts_title'), body: <ShortcutsSection env={env} /> }] : []),
    { id: 'diagnostics', title: t('diagnostics_page_title'), intro: t('diagnostics_intro'), body: <DiagnosticsSection env={env} initialOrigin={initialOrigin} /> },
  ];
  return (
    <>
      <header class="top">
        <div class="brand">
          <img class="logo" src="/icon/48.png" alt="" width="24" height="24" />
          <h1>{t('options_title')}</h1>
        </div>
        <nav aria-label={t('options_nav')}>
          <ul class="nav">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main class="options">
        {sections.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`h-${s.id}`} class="panel">
            <h2 id={`h-${s.id}`}>{s.title}</h2>
            {s.intro && <p class="hint">{s.intro}</p>}
            {s.body}
          </section>
        ))}
      </main>
    </>
  );
}

export function Options(props: { env: OptionsEnv; initialOrigin?: string | null }) {
  return (
    <AnnouncerProvider>
      <Body {...props} />
    </AnnouncerProvider>
  );
}
