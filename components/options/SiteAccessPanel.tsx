// Which sites the user lets Skillpin read (Chrome's site access, Firefox's per-site permissions),
// shown above the settings with how to change it; "Allow on all sites" asks the browser from the click.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { ALL_SITES_PATTERNS } from '../../lib/match-patterns';
import type { SiteAccessSummary } from '../../lib/messages';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';

/** `version` grows when settings changed anywhere (a grant or a removal is announced as one). */
export function SiteAccessPanel({ env, version = 0 }: { env: OptionsEnv; version?: number }) {
  const [access, setAccess] = useState<SiteAccessSummary | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    env.client.siteAccess().then(
      (a) => live && setAccess(a),
      (err: unknown) => live && setProblem(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [env, version]);
  if (problem) return <p class="field-error">{t('access_error', problem)}</p>;
  if (!access) return null;
  const request = env.requestAccess;
  return (
    <div class="result access" role="note" data-testid="site-access" data-access={access.all ? 'all' : access.sites.length > 0 ? 'some' : 'none'}>
      <h3>{t('access_title')}</h3>
      {access.all ? (
        <p>{t('access_all')}</p>
      ) : (
        <>
          <p>{access.sites.length > 0 ? t('access_some') : t('access_none')}</p>
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
