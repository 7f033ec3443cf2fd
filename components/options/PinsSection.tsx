import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { errorText } from '../shared/format';
import type { OptionsEnv } from './env';
import { keyColumns, useConfirmedAction } from './KeyTable';
import { listPlaceholder, PagedTableView, type CountText } from './PagedTable';
import { LIST_PAGE_ROWS, type Pin, type PinsPage } from '../../lib/types';
import { OriginLink } from './OriginLink';

type PinsState = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; items: Pin[]; matching: number; total: number };

/**
 * The pins a page at a time from the background, which sorts and filters them
 * (lib/types/pins-page.ts): the first page again whenever `version` or the filter changes,
 * the next one on "Show more". The rows drawn stay while a new page is on its way, so the
 * filter box keeps its focus as the user types.
 */
function usePinPages(env: OptionsEnv, version: number, filter: string): { state: PinsState; more: () => void } {
  const [state, setState] = useState<PinsState>({ phase: 'loading' });
  const seq = useRef(0);
  const shown = state.phase === 'ready' ? state.items : [];
  /** Draws the page `request` answers after the first `kept` rows, unless a newer request was made meanwhile. */
  const show = (request: Promise<PinsPage>, kept: readonly Pin[]) => {
    const n = ++seq.current;
    request.then(
      (page) => n === seq.current && setState({ phase: 'ready', items: [...kept.slice(0, page.offset), ...page.items], matching: page.matching, total: page.total }),
      (err: unknown) => n === seq.current && setState({ phase: 'error', message: errorText(err) }),
    );
  };
  // A layout effect: the first page (asked for as the page's script started) is drawn as soon as it
  // is in, not after the browser's first frame of the whole page.
  useLayoutEffect(() => show(filter === '' ? env.client.pinsFirstPage() : env.client.pinsPage(0, LIST_PAGE_ROWS, filter), []), [env, version, filter]);
  const more = useCallback(() => show(env.client.pinsPage(shown.length, LIST_PAGE_ROWS, filter), shown), [env, filter, shown]);
  return { state, more };
}

const COUNT: CountText = { all: 'pins_showing', filtered: 'pins_showing_filtered', none: 'pins_no_match' };

export function PinsSection({ env, version, onChanged }: { env: OptionsEnv; version: number; onChanged: () => void }) {
  const [filter, setFilter] = useState('');
  const { state, more } = usePinPages(env, version, filter);
  const forget = useConfirmedAction<Pin>({
    send: (pin) => env.client.pinForget(pin.origin),
    doneText: (pin) => t('pin_forgotten', pin.origin),
    dialog: (pin) => ({ title: t('forget_title', pin.origin), confirmLabel: t('forget'), children: <p>{t('forget_body')}</p> }),
    onChanged,
  });

  // The background pages and filters: the list is empty when it holds no pin at all, not when the filter matches none.
  const placeholder = listPlaceholder(state, t('pins_empty'), state.phase === 'ready' && state.total === 0);
  if (placeholder !== null || state.phase !== 'ready') return placeholder;
  return (
    <>
      <PagedTableView
        testId="pins"
        caption={t('pins_title')}
        filterLabel={t('pins_filter')}
        count={COUNT}
        shown={state.items}
        matching={state.matching}
        total={state.total}
        filter={filter}
        onFilter={setFilter}
        onMore={more}
        columns={keyColumns<Pin>({
          originCell: (p) => <OriginLink origin={p.origin} popupUrl={env.popupUrl} />,
          action: (p) => ({ name: 'forget', label: t('forget'), ariaLabel: t('forget_pin_for', p.origin), onClick: () => forget.ask(p) }),
        })}
        rowKey={(p) => p.origin}
        rowData={(p) => ({ 'data-origin': p.origin })}
      />
      {forget.dialog}
    </>
  );
}
