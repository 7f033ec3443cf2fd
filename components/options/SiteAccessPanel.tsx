// Which sites the user lets Skillpin read (Chrome's site access, Firefox's per-site permissions),
// shown above the settings with how to change it; "Allow on all sites" asks the browser from the click.
import { useState } from 'preact/hooks';
import { useLive } from '../shared/use-list';
import { t } from '../../lib/i18n';
import { ALL_SITES_PATTERNS } from '../../lib/match-patterns';
import type { SiteAccessSummary } from '../../lib/messages';
import { errorText } from '../shared/format';
import { SITE_ACCESS_STATES, stateLook, TONE_BOX, type SiteAccessState } from '../shared/status';
import type { OptionsEnv } from './env';

/** `version` grows when settings changed anywhere (a grant or a removal is announced as one). */
export function SiteAccessPanel({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const [access, setAccess] = useState<SiteAccessSummary | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useLive([env, version], (live) => {
    env.client.siteAccess().then(
      (a) => live() && setAccess(a),
      (err: unknown) => live() && setProblem(errorText(err)),
    );
  });
  if (problem) return <p class="field-error">{t('access_error', problem)}</p>;
  if (!access) return null;
  const request = env.requestAccess;
  const state: SiteAccessState = access.all ? 'all' : access.sites.length > 0 ? 'some' : 'none';
  const look = stateLook(SITE_ACCESS_STATES[state]);
  return (
    <div class={`result access ${TONE_BOX[look.tone]}`} role="note" data-testid="site-access" data-access={state}>
      <h3>{t('access_title')}</h3>
      <p>
        <span class="chip-mark access-mark" aria-hidden="true">
          {look.mark}
        </span>
        {look.words}
      </p>
      {!access.all && (
        <>
          {access.sites.length > 0 && (
            <ul data-testid="site-access-sites">
              {access.sites.map((s) => (
                <li key={s}>
                  <code>{s}</code>
                </li>
              ))}
            </ul>
          )}
          {request && (
            <div class="actions">
              <button type="button" data-action="allow-all" onClick={() => void request(ALL_SITES_PATTERNS)}>
                {t('access_allow_all')}
              </button>
            </div>
          )}
        </>
      )}
      <p class="hint">{t('access_how')}</p>
    </div>
  );
}
