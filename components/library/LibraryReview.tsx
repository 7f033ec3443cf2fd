// A skill that needs the user, reviewed from the library with the popup's own views: the line diff
// (and an archive's changed files) before approving the new content again, or the key-change
// banner to trust a new publisher key or keep blocking.
import { Loading } from '../shared/Placeholders';
import { Origin } from '../shared/Origin';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { LibraryEntry } from './filter';
import type { RequestMap } from '../../lib/messages';
import type { OriginReport } from '../../lib/types';
import { t } from '../../lib/i18n';
import { NAME_MAX, display } from '../../lib/render/display';
import { useAnnounce } from '../shared/Announcer';
import { ChangesSection, changesOf } from '../shared/ArchiveFiles';
import { KeyBanner, trustKey } from '../shared/KeyBanner';
import { useSkillActions } from '../shared/actions';
import { errorText } from '../shared/format';
import type { LibraryEnv } from './env';
import { refusalWords, statusWords } from './words';

type Loaded = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; report: OriginReport | null; text: RequestMap['skillpin:skill-text']['response'] | null };

/** `version` grows with every change made anywhere: the report is read again. */
export function LibraryReview({ env, entry, version, onBack }: { env: LibraryEnv; entry: LibraryEntry; version: number; onBack: () => void }) {
  const { item } = entry;
  const announce = useAnnounce();
  const [state, setState] = useState<Loaded>({ phase: 'loading' });
  const load = useCallback(async () => {
    try {
      const [report, text] = await Promise.all([env.client.report(item.origin), env.client.skillText(item.origin, item.url).catch(() => null)]);
      setState({ phase: 'ready', report, text });
    } catch (err) {
      setState({ phase: 'error', message: errorText(err) });
    }
  }, [env, item.origin, item.url]);
  useEffect(() => void load(), [load, version]);
  const actions = useSkillActions(env, item.origin, load, version);
  const name = display(item.name, NAME_MAX);
  const report = state.phase === 'ready' ? state.report : null;
  const skill = report?.skills.find((s) => s.url === item.url) ?? null;
  const keyProblem = item.attention === 'key-changed' || item.attention === 'key-revoked';
  const approvable = (item.attention === 'content-changed' || item.attention === 'review-files') && skill !== null && skill.actual !== null;

  const trust = (expected: string | null, next: string) => trustKey(env.client, announce, item.origin, expected, next, load, 'trust_failed');

  return (
    <section class="lib-review" aria-labelledby="review-title" data-testid="library-review">
      <button type="button" class="btn-quiet details-nav" onClick={onBack} data-action="back">
        ← {t('back')}
      </button>
      <h2 id="review-title">{t('library_review_title', name)}</h2>
      <p class="origin">
        <Origin origin={item.origin} />
      </p>
      <p class="verdict" data-attention={item.attention ?? 'none'}>
        {statusWords(item)}
      </p>
      {state.phase === 'loading' && <Loading text={t('library_review_loading')} />}
      {state.phase === 'error' && <p class="error">{t('approved_list_error', state.message)}</p>}
      {state.phase === 'ready' && !skill && <p class="hint">{t('library_review_gone')}</p>}
      {state.phase === 'ready' && keyProblem && report && (
        <KeyBanner
          origin={item.origin}
          keyReport={report.key}
          optionsUrl={env.optionsUrl}
          busy={actions.busy}
          onTrust={(e, n) => void trust(e, n)}
          onKeep={() => {
            announce(t('kept_blocking'), 'info');
            onBack();
          }}
        />
      )}
      {state.phase === 'ready' && !keyProblem && <ChangesSection {...changesOf(state.text)} />}
      {state.phase === 'ready' && item.attention === 'unusable' && <p class="hint">{t('library_review_unusable', refusalWords(item.refusal))}</p>}
      {approvable && skill && (
        <div class="actions">
          <button type="button" class="btn-primary" disabled={actions.busy} onClick={() => actions.approve(skill)} data-action="approve">
            {t('library_approve_again')}
          </button>
        </div>
      )}
      {actions.dialog}
    </section>
  );
}
