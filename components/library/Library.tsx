// The side panel's library: every approved skill of every site, grouped by site,
// filtered as the user types, keyboard first: typing anywhere goes to the search box, the arrow
// keys choose a row, Enter inserts it into the chat Insert goes to, the popup's answer (or opens the review of a
// skill that needs the user). It follows tab switches and changes made anywhere without a reload.
import { Loading } from '../shared/Placeholders';
import { Page } from '../shared/Page';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { filterEntries, groupBySite, libraryIndex, type LibraryEntry } from './filter';
import { t } from '../../lib/i18n';
import { NAME_MAX, display } from '../../lib/render/display';
import { useAnnounce } from '../shared/Announcer';
import { InsertTargetLine } from '../shared/InsertTarget';
import { useSkillActions } from '../shared/actions';
import type { ActiveTab, LibraryEnv } from './env';
import { LibraryList, rowId } from './LibraryList';
import { LibraryReview } from './LibraryReview';
import { useActiveTab } from './active-tab';
import { useLibrary } from './use-library';
import { statusWords } from './words';

/** Rows drawn at first and added by "Show more": a long list is not drawn whole at every keystroke. */
export const ROWS_SHOWN = 100;

function TabLine({ tab }: { tab: ActiveTab | null | undefined }) {
  if (tab === undefined) return null;
  const text = tab === null ? t('library_on_nothing') : tab.isChat ? t('library_on_chat', tab.host) : t('library_on_page', tab.host);
  return (
    <div class="lib-tab" data-testid="library-tab" data-chat={tab?.isChat ? 'true' : 'false'}>
      <p>{text}</p>
      <InsertTargetLine chat={tab?.insert ?? null} />
    </div>
  );
}

/** Typing a letter anywhere in the panel (outside a field) starts a search. */
function typeToSearch(e: KeyboardEvent, search: HTMLInputElement | null): void {
  const target = e.target as HTMLElement | null;
  if (!search || e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey) return;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable || target.closest('[role="dialog"]'))) return;
  search.focus();
}

function Body({ env }: { env: LibraryEnv }) {
  const { state, version } = useLibrary(env);
  const tab = useActiveTab(env);
  const announce = useAnnounce();
  const actions = useSkillActions(env, '', () => undefined, version);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [shown, setShown] = useState(ROWS_SHOWN);
  const [review, setReview] = useState<LibraryEntry | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const items = state.phase === 'ready' ? state.items : null;
  const index = useMemo(() => (items ? libraryIndex(items) : []), [items]);
  const found = useMemo(() => filterEntries(index, query), [index, query]);
  const visible = found.slice(0, shown);
  const groups = useMemo(() => groupBySite(visible), [found, shown]);
  const current = visible[Math.min(active, visible.length - 1)] ?? null;

  useEffect(() => search.current?.focus(), []);
  useEffect(() => document.getElementById(rowId(active))?.scrollIntoView?.({ block: 'nearest' }), [active]);
  // A skill under review follows the list: its new state, or back when it is gone. Read from the
  // state as it is when the effect runs, not as it was rendered: a Back pressed between the list's
  // new render and this effect must stay pressed.
  useEffect(() => {
    if (!items) return;
    setReview((r) => {
      if (!r) return r;
      const now = items.find((i) => i.origin === r.item.origin && i.url === r.item.url);
      if (!now) return null;
      return now === r.item ? r : { ...r, item: now };
    });
  }, [items]);

  function onSearchKey(e: KeyboardEvent) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const last = visible.length - 1;
      setActive((a) => Math.max(0, Math.min(last, Math.min(a, last) + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter' && current) {
      e.preventDefault();
      enter(current);
    } else if (e.key === 'Escape' && query !== '') {
      e.preventDefault();
      setQuery('');
      setActive(0);
    }
  }

  function enter(entry: LibraryEntry) {
    const { item } = entry;
    if (!item.usable) {
      announce(t('library_enter_attention', display(item.name, NAME_MAX)), 'info');
      setReview(entry);
    } else if (tab?.insert) void actions.insert(tab.insert.tabId, tab.insert.origin, item.origin, item.url, item.name);
    else announce(t('library_enter_no_chat'), 'error');
  }

  if (review) {
    return (
      <LibraryReview
        env={env}
        entry={review}
        version={version}
        onBack={() => {
          setReview(null);
          queueMicrotask(() => search.current?.focus());
        }}
      />
    );
  }
  return (
    <div class="lib" onKeyDown={(e) => typeToSearch(e, search.current)}>
      <p class="hint lib-intro">{t('library_intro')}</p>
      <TabLine tab={tab} />
      <div class="lib-search">
        <label for="library-search">{t('library_search_label')}</label>
        <input
          id="library-search"
          ref={search}
          type="search"
          value={query}
          placeholder={t('library_search_placeholder')}
          aria-describedby="library-keys"
          aria-controls="library-results"
          autocomplete="off"
          spellcheck={false}
          onInput={(e) => {
            setQuery((e.target as HTMLInputElement).value);
            setActive(0);
            setShown(ROWS_SHOWN);
          }}
          onKeyDown={onSearchKey}
          data-testid="library-search"
        />
        <p id="library-keys" class="hint">
          {t('library_keys_hint')}
        </p>
      </div>
      <p class="visually-hidden" aria-live="polite" data-testid="library-active">
        {current ? t('library_active', display(current.item.name, NAME_MAX), current.host, statusWords(current.item)) : ''}
      </p>
      <div id="library-results">
        {state.phase === 'loading' && <Loading />}
        {state.phase === 'error' && <p class="error">{t('approved_list_error', state.message)}</p>}
        {items && items.length === 0 && <p class="empty">{t('library_empty')}</p>}
        {items && items.length > 0 && found.length === 0 && <p class="empty">{t('library_no_match', query)}</p>}
        {items && found.length > 0 && (
          <>
            <p class="summary" data-testid="library-count" data-complete={state.phase === 'ready' && state.complete ? 'true' : 'false'}>
              {t('library_shown', String(visible.length), String(found.length))}
            </p>
            <LibraryList groups={groups} active={Math.min(active, visible.length - 1)} tab={tab ?? null} actions={actions} onReview={setReview} onPick={setActive} />
            {found.length > visible.length && (
              <button type="button" class="btn-quiet" onClick={() => setShown((n) => n + ROWS_SHOWN)} data-action="more">
                {t('library_more')}
              </button>
            )}
          </>
        )}
      </div>
      {actions.dialog}
    </div>
  );
}

export function Library({ env }: { env: LibraryEnv }) {
  return (
    <Page title={t('library_title')} optionsUrl={env.optionsUrl}>
      <Body env={env} />
    </Page>
  );
}
