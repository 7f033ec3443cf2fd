// The options page: settings, pins, approvals, desktop agents, export/import and diagnostics.
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
  const sections = [
    { id: 'settings', title: t('settings_title') },
    { id: 'pins', title: t('pins_title') },
    { id: 'approvals', title: t('approvals_title') },
    { id: 'desktop', title: t('desktop_title') },
    { id: 'transfer', title: t('transfer_title') },
    ...(env.shortcuts ? [{ id: 'shortcuts', title: t('shortcuts_title') }] : []),
    { id: 'diagnostics', title: t('diagnostics_page_title') },
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
        <section id="settings" aria-labelledby="h-settings" class="panel">
          <h2 id="h-settings">{t('settings_title')}</h2>
          <SettingsSection env={env} version={settingsVersion} />
        </section>
        <section id="pins" aria-labelledby="h-pins" class="panel">
          <h2 id="h-pins">{t('pins_title')}</h2>
          <p class="hint">{t('pins_intro')}</p>
          <PinsSection env={env} version={version} onChanged={changed} />
          <h3 id="h-key-history">{t('history_title')}</h3>
          <p class="hint">{t('history_intro')}</p>
          <KeyHistorySection env={env} version={version} onChanged={changed} />
        </section>
        <section id="approvals" aria-labelledby="h-approvals" class="panel">
          <h2 id="h-approvals">{t('approvals_title')}</h2>
          <ApprovalsSection env={env} version={version} onChanged={changed} />
        </section>
        <section id="desktop" aria-labelledby="h-desktop" class="panel">
          <h2 id="h-desktop">{t('desktop_title')}</h2>
          <DesktopSection env={env} version={version + settingsVersion} />
        </section>
        <section id="transfer" aria-labelledby="h-transfer" class="panel">
          <h2 id="h-transfer">{t('transfer_title')}</h2>
          <p class="hint">{t('transfer_intro')}</p>
          <TransferSection env={env} onChanged={changed} />
        </section>
        {env.shortcuts && (
          <section id="shortcuts" aria-labelledby="h-shortcuts" class="panel">
            <h2 id="h-shortcuts">{t('shortcuts_title')}</h2>
            <ShortcutsSection env={env} />
          </section>
        )}
        <section id="diagnostics" aria-labelledby="h-diagnostics" class="panel">
          <h2 id="h-diagnostics">{t('diagnostics_page_title')}</h2>
          <p class="hint">{t('diagnostics_intro')}</p>
          <DiagnosticsSection env={env} initialOrigin={initialOrigin} />
        </section>
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
