// A long list shown as a table one page at a time: a filter box above it, a count
// that screen readers hear ("Showing 100 of 10,000 pins"), and "Show more" below.
// Only the rows shown are in the page, so thousands of entries open quickly and
// any one of them is reachable through the filter.
import type { ComponentChild } from 'preact';
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { errorText } from '../shared/format';
import { LIST_PAGE_ROWS, normalizeFilter } from '../../lib/lists/pins-page';
import { DataTable, type DataTableProps } from './DataTable';

/** Rows added to the table at first and by each "Show more". */
export const PAGE_SIZE = LIST_PAGE_ROWS;

/** A list this short is read at a glance: no filter box above it. */
export const FILTER_MIN_ROWS = 10;

// One collator for every sort: the same order as String.prototype.localeCompare, far cheaper per call.
const collator = new Intl.Collator();
export const compareText = (a: string, b: string): number => collator.compare(a, b);

const numbers = new Intl.NumberFormat();
export const formatCount = (n: number): string => numbers.format(n);

export { normalizeFilter };

export type ListState<T> = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; items: T[] };

/**
 * Loads a list (again whenever `version` changes) and sorts it once. `fetchList` and
 * `compare` must be stable (module-level or memoized): a new one reloads the list.
 */
export function useSortedList<T>(fetchList: () => Promise<readonly T[]>, compare: (a: T, b: T) => number, version: number): ListState<T> {
  const [state, setState] = useState<ListState<T>>({ phase: 'loading' });
  useEffect(() => {
    let live = true;
    fetchList()
      .then((items) => live && setState({ phase: 'ready', items: [...items].sort(compare) }))
      .catch((err: unknown) => live && setState({ phase: 'error', message: errorText(err) }));
    return () => {
      live = false;
    };
  }, [fetchList, compare, version]);
  return state;
}

/**
 * The loading / error / empty paragraph for a list, or null once there are items to show.
 * `empty` overrides "no items" for lists paged elsewhere, where a page can be empty and the list not.
 */
export function listPlaceholder<T>(state: ListState<T>, emptyText: string, empty?: boolean): ComponentChild | null {
  if (state.phase === 'loading')
    return (
      <p class="loading" aria-busy="true">
        {t('loading')}
      </p>
    );
  if (state.phase === 'error')
    return (
      <p class="error" role="alert">
        {t('list_error', state.message)}
      </p>
    );
  if (empty ?? state.items.length === 0) return <p class="empty">{emptyText}</p>;
  return null;
}

export interface CountText {
  /** Every row shown or not: "Showing 100 of 10,000 pins". */
  all: (shown: string, total: string) => string;
  /** With a filter: "Showing 3 of 3 matching pins (10,000 in all)". */
  filtered: (shown: string, matching: string, total: string) => string;
  /** With a filter that matches nothing. */
  none: (filter: string) => string;
}

/** The columns and rows of the table (DataTable). */
type TableParts<T> = Pick<DataTableProps<T>, 'columns' | 'rowKey' | 'rowData'>;

interface Props<T> extends TableParts<T> {
  testId: string;
  caption: string;
  /** Every item, already in display order. */
  items: readonly T[];
  /** Whether an item matches a normalized, non-empty filter (see normalizeFilter). */
  matches: (item: T, filter: string) => boolean;
  filterLabel: string;
  count: CountText;
  pageSize?: number;
}

export function PagedTable<T>({ testId, caption, columns, rowKey, rowData, items, matches, filterLabel, count, pageSize = PAGE_SIZE }: Props<T>) {
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(pageSize);
  const needle = normalizeFilter(filter);
  const matching = useMemo(() => (needle ? items.filter((item) => matches(item, needle)) : items), [items, needle, matches]);
  const shown = matching.length > limit ? matching.slice(0, limit) : matching;
  return (
    <PagedTableView
      testId={testId}
      caption={caption}
      columns={columns}
      rowKey={rowKey}
      rowData={rowData}
      shown={shown}
      matching={matching.length}
      total={items.length}
      filter={filter}
      onFilter={(text) => {
        setFilter(text);
        setLimit(pageSize);
      }}
      onMore={() => setLimit(shown.length + pageSize)}
      filterLabel={filterLabel}
      count={count}
      pageSize={pageSize}
    />
  );
}

interface ViewProps<T> extends TableParts<T> {
  testId: string;
  caption: string;
  /** The rows drawn, in display order. */
  shown: readonly T[];
  /** Rows matching the filter, drawn or not. */
  matching: number;
  /** Rows in all. */
  total: number;
  /** The filter as typed. */
  filter: string;
  onFilter: (text: string) => void;
  /** "Show more": the caller adds up to `pageSize` rows to `shown`. */
  onMore: () => void;
  filterLabel: string;
  count: CountText;
  pageSize?: number;
}

/**
 * The table, its filter box, count and "Show more", for rows someone else pages: PagedTable
 * over a list in the page, or the pins section over pages the background sorts and filters.
 */
export function PagedTableView<T>({ testId, caption, columns, rowKey, rowData, shown, matching, total, filter, onFilter, onMore, filterLabel, count, pageSize = PAGE_SIZE }: ViewProps<T>) {
  const id = useId();
  const tbody = useRef<HTMLTableSectionElement>(null);
  const focusRow = useRef<number | null>(null);
  const needle = normalizeFilter(filter);
  const more = matching - shown.length;

  // After "Show more", focus moves to the first new row, so keyboard users carry on where the list grew.
  useEffect(() => {
    const index = focusRow.current;
    if (index === null) return;
    const target = tbody.current?.children[index]?.querySelector<HTMLElement>('a[href], button:not([disabled])');
    if (!target) return; // rows from the background may arrive a render later
    focusRow.current = null;
    target.focus();
  });

  let status: string;
  if (needle && matching === 0) status = count.none(filter.trim());
  else if (needle) status = count.filtered(formatCount(shown.length), formatCount(matching), formatCount(total));
  else status = count.all(formatCount(shown.length), formatCount(total));

  return (
    <>
      <div class="list-tools">
        {(total > FILTER_MIN_ROWS || filter !== '') && (
          <div class="list-filter">
            <label for={`${id}-filter`}>{filterLabel}</label>
            <input
              id={`${id}-filter`}
              type="search"
              value={filter}
              autocomplete="off"
              spellcheck={false}
              aria-controls={`${id}-table`}
              aria-describedby={`${id}-count`}
              onInput={(e) => {
                focusRow.current = null;
                onFilter((e.currentTarget as HTMLInputElement).value);
              }}
              data-testid={`${testId}-filter`}
            />
          </div>
        )}
        {(total > FILTER_MIN_ROWS || filter !== '' || more > 0) && (
          <p class="list-count hint" id={`${id}-count`} role="status" aria-live="polite" data-testid={`${testId}-count`}>
            {status}
          </p>
        )}
      </div>
      {shown.length > 0 && (
        <DataTable
          caption={caption}
          hideCaption
          columns={columns}
          items={shown}
          rowKey={rowKey}
          rowData={rowData}
          id={`${id}-table`}
          testId={testId}
          data={{ 'data-total': total, 'data-matching': matching }}
          tbodyRef={tbody}
        />
      )}
      {more > 0 && (
        <div class="actions list-more">
          <button
            type="button"
            aria-describedby={`${id}-count`}
            onClick={() => {
              focusRow.current = shown.length;
              onMore();
            }}
            data-action="show-more"
          >
            {t('list_show_more', formatCount(Math.min(pageSize, more)))}
          </button>
        </div>
      )}
    </>
  );
}
