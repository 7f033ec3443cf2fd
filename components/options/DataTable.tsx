// One table of the options page: a caption, a header row of column headers (`<th scope="col">`)
// and one row per item, drawn from typed columns. The pins, the key history, the approvals and the
// import's preview and conflicts tables are all this one; paging and filtering are PagedTable's.
import type { ComponentChild, Ref } from 'preact';

/** Data attributes of an element; an undefined value leaves the attribute out. */
export type DataAttributes = Record<`data-${string}`, string | number | undefined>;

export interface Column<T> {
  /** The header's words. */
  header: string;
  /** The header is read to screen readers only (the actions column). */
  hideHeader?: boolean;
  cell: (item: T) => ComponentChild;
  /** Data attributes of each of the column's cells (a data-testid). */
  cellData?: DataAttributes;
}

export interface DataTableProps<T> {
  /** Absent: no caption (the paragraph above the table says what it holds). */
  caption?: string;
  /** The caption for screen readers only, where a heading above says it already. */
  hideCaption?: boolean;
  columns: readonly Column<T>[];
  /** The rows, in display order. */
  items: readonly T[];
  /** Each row's key, unique in the table. */
  rowKey: (item: T) => string;
  /** Each row's data attributes (what tests and the page's scripts find it by). */
  rowData?: (item: T) => DataAttributes;
  id?: string;
  testId?: string;
  /** The table's own data attributes. */
  data?: DataAttributes;
  tbodyRef?: Ref<HTMLTableSectionElement>;
}

export function DataTable<T>({ caption, hideCaption = false, columns, items, rowKey, rowData, id, testId, data, tbodyRef }: DataTableProps<T>) {
  return (
    <table class="table" id={id} data-testid={testId} {...data}>
      {caption !== undefined && <caption class={hideCaption ? 'visually-hidden' : undefined}>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col">
              {c.hideHeader ? <span class="visually-hidden">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody ref={tbodyRef}>
        {items.map((item) => (
          <tr key={rowKey(item)} {...rowData?.(item)}>
            {columns.map((c, i) => (
              <td key={i} {...c.cellData}>
                {c.cell(item)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
