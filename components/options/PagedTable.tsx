// A long list shown as a table one page at a time: a filter box above it, a count
// that screen readers hear ("Showing 100 of 10,000 pins"), and "Show more" below.
// Only the rows shown are in the page, so thousands of entries open quickly and
// any one of them is reachable through the filter.
import { Failed, Loading } from '../shared/Placeholders';
import type { ComponentChild } from 'preact';
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { useList, type ListState } from '../shared/use-list';
import { t, type MessageKey } from '../../lib/i18n';
import { LIST_PAGE_ROWS, normalizeFilter } from '../../lib/types';
import { DataTable, type DataTableProps } from './DataTable';

/** A list this short is read at a glance: no filter box above it. */
export const FILTER_MIN_ROWS = 10;

// One collator for every sort: the same order as String.prototype.localeCompare, far cheaper per call.
const collator = new Intl.Collator();
export const compareText = (a: string, b: string): number => collator.compare(a, b);

const numbers = new Intl.NumberFormat();
export const formatCount = (n: number): string => numbers.format(n);

/** Loads a list (again whenever `deps` change) and sorts it once. */
export function useSortedList<T>(fetchList: () => Promise<readonly T[]>, compare: (a: T, b: T) => number, deps: readonly unknown[]): ListState<T> {
  return useList(() => fetchList().then((items) => [...items].sort(compare)), deps);
}

/**
 * The loading / error / empty paragraph for a list, or null once there are items to show.
 * `empty` overrides "no items" for lists paged elsewhere, where a page can be empty and the list not.
 */
export function listPlaceholder<T>(state: ListState<T>, emptyText: string, empty?: boolean): ComponentChild | null {
  if (state.phase === 'loading') return <Loading />;
  if (state.phase === 'error') return <Failed text={t('list_error', state.message)} />;
  if (empty ?? state.items.length === 0) return <p class="empty">{emptyText}</p>;
  return null;
}

/** The catalogue keys of the count line: every row ("Showing 100 of 10,000 pins"), with a filter ("Showing 3 of 3 matching pins (10,000 in all)"), a filter that matches nothing. */
export type CountText = { all: MessageKey; filtered: MessageKey; none: MessageKey };

/** The columns and rows of the table (DataTable) and its names: what PagedTable passes on to PagedTableView. */
interface TableParts<T> extends Pick<DataTableProps<T>, 'columns' | 'rowKey' | 'rowData'> {
  testId: string;
  caption: string;
  filterLabel: string;
  count: CountText;
}

interface Props<T> extends TableParts<T> {
  /** Every item, already in display order. */
  items: readonly T[];
  /** Whether an item matches a normalized, non-empty filter (see normalizeFilter). */
  matches: (item: T, filter: string) => boolean;
}

export function PagedTable<T>({ items, matches, ...parts }: Props<T>) {
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(LIST_PAGE_ROWS);
  const needle = normalizeFilter(filter);
  const matching = useMemo(() => (needle ? items.filter((item) => matches(item, needle)) : items), [items, needle, matches]);
  const shown = matching.length > limit ? matching.slice(0, limit) : matching;
  return (
    <PagedTableView
      {...parts}
      shown={shown}
      matching={matching.length}
      total={items.length}
      filter={filter}
      onFilter={(text) => {
        setFilter(text);
        setLimit(LIST_PAGE_ROWS);
      }}
      onMore={() => setLimit(shown.length + LIST_PAGE_ROWS)}
    />
  );
}

interface ViewProps<T> extends TableParts<T> {
  /** The rows drawn, in display order. */
  shown: readonly T[];
  /** Rows matching the filter, drawn or not. */
  matching: number;
  /** Rows in all. */
  total: number;
  /** The filter as typed. */
  filter: string;
  onFilter: (text: string) => void;
  /** "Show more": the caller adds up to LIST_PAGE_ROWS rows to `shown`. */
  onMore: () => void;
}

/**
 * The table, its filter box, count and "Show more", for rows someone else pages: PagedTable
 * over a list in the page, or the pins section over pages the background sorts and filters.
 */
export function PagedTableView<T>({ testId, caption, columns, rowKey, rowData, shown, matching, total, filter, onFilter, onMore, filterLabel, count }: ViewProps<T>) {
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
  if (needle && matching === 0) status = t(count.none, filter.trim());
  else if (needle) status = t(count.filtered, formatCount(shown.length), formatCount(matching), formatCount(total));
  else status = t(count.all, formatCount(shown.length), formatCount(total));

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
            {t('list_show_more', formatCount(Math.min(LIST_PAGE_ROWS, more)))}
          </button>
        </div>
      )}
    </>
  );
}
