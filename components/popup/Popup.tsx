// The popup: a header with the origin and Re-check, then either the chat panel
// (on a chat site) and/or the origin's skills.
import { Origin } from '../shared/Origin';
import { Page } from '../shared/Page';
import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { PolicySummary } from '../../lib/messages';
import { useAnnounce } from '../shared/Announcer';
import { errorText } from '../shared/format';
import { PolicyContext } from '../shared/policy';
import { ChatPanel } from './ChatPanel';
import type { PopupEnv } from './env';
import { OriginView } from './OriginView';
import type { ChatTab, PopupTarget } from './target';
import { InsertTargetLine } from '../shared/InsertTarget';
import { useLive } from '../shared/use-list';
import { useChanges } from '../shared/state-changes';
import { Loading } from '../shared/Placeholders';

/** "All my skills": opens the library beside the page, then closes the popup (its list is there now). */
function AllSkillsButton({ open }: { open: () => Promise<void> }) {
  const announce = useAnnounce();
  return (
    <button
      type="button"
      title={t('popup_all_skills_hint')}
      onClick={() =>
        open().then(
          () => window.close(),
          (err: unknown) => announce(t('popup_all_skills_failed', errorText(err)), 'error'),
        )
      }
      data-action="library"
    >
      {t('popup_all_skills')}
    </button>
  );
}

/** `target`: null while it is being resolved. */
export function Popup({ env, target }: { env: PopupEnv; target: PopupTarget | null }) {
  const [recheck, setRecheck] = useState(0);
  const [busy, setBusy] = useState(false);
  const [chatTab, setChatTab] = useState<ChatTab | null>(null);
  const [policy, setPolicy] = useState<PolicySummary | null>(null);
  const version = useChanges(env);
  // The policy explains a disabled Approve; without an answer the background still refuses.
  // A policy change is announced as a settings change: it is asked for again then.
  useLive([env, version], (live) => {
    env.client
      .policyGet()
      .then((p) => live() && setPolicy(p))
      .catch(() => undefined);
  });

  const origin = target?.kind === 'origin' ? target.origin : null;
  const targetTab = target?.kind === 'origin' ? target.tabId : null;
  // Looked up again once the target is known: the chat tab prefers the target's own tab and origin.
  useLive([env, origin, targetTab], (live) => {
    env
      .findChatTab()
      .then((tab) => live() && setChatTab(tab))
      .catch(() => live() && setChatTab(null));
  });

  // The chat view inserts into the target's tab; opened for an origin (?origin=), into a tab of that origin.
  const chatViewTab = targetTab ?? (chatTab !== null && chatTab.origin === origin ? chatTab.tabId : null);
  return (
    <PolicyContext.Provider value={policy}>
      <Page
        title={t('extName')}
        optionsUrl={env.optionsUrl}
        actions={
          <>
            {env.openLibrary && <AllSkillsButton open={env.openLibrary} />}
            {origin && (
              <button type="button" onClick={() => setRecheck((n) => n + 1)} disabled={busy} data-action="recheck">
                {t('recheck')}
              </button>
            )}
          </>
        }
        below={
          // The site on a line of its own, the whole width: its address wraps only at dots and slashes.
          origin && (
            <p class="origin" data-testid="origin">
              <Origin origin={origin} />
            </p>
          )
        }
      >
        {target === null && <Loading cls="state loading" />}
        {target?.kind === 'unsupported' && <p class="state empty">{t('unsupported_page')}</p>}
        {target?.kind === 'error' && (
          <p class="state error" role="alert">
            {t('target_error', target.message)}
          </p>
        )}
        {target?.kind === 'origin' && <InsertTargetLine chat={chatTab} />}
        {target?.kind === 'origin' && target.isChat && <ChatPanel env={env} tabId={chatViewTab} chatOrigin={target.origin} version={version} />}
        {target?.kind === 'origin' && (
          // On a chat site that publishes no skills of its own, its section says nothing (hideEmpty).
          <OriginView env={env} origin={target.origin} tabId={target.tabId} chatTab={chatTab} recheck={recheck} changes={version} onBusy={setBusy} hideEmpty={target.isChat} />
        )}
      </Page>
    </PolicyContext.Provider>
  );
}
