// @vitest-environment happy-dom
// The options page's one table (components/options/DataTable.tsx): caption, column headers with
// their scope, one row per item with its data attributes, one cell per column.
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { DataTable, type Column } from '../../../../components/options/DataTable';
import { mount } from '../harness';

afterEach(() => {
  document.body.innerHTML = '';
});

interface Item {
  id: string;
  n: number;
  flag: boolean;
}

const COLUMNS: Column<Item>[] = [
  { header: 'Name', cell: (i) => i.id },
  { header: 'Count', cell: (i) => <strong>{i.n}</strong>, cellData: { 'data-testid': 'count' } },
  { header: 'Actions', hideHeader: true, cell: (i) => (i.flag ? <button type="button">Go</button> : null) },
];

const ITEMS: Item[] = [
  { id: 'a', n: 1, flag: true },
  { id: 'b', n: 2, flag: false },
];

describe('DataTable', () => {
  it('draws a caption, a header per column (scope col, the hidden one for screen readers only) and a row per item', async () => {
    const root = await mount(
      <DataTable
        caption="Things"
        testId="things"
        data={{ 'data-total': 2 }}
        columns={COLUMNS}
        items={ITEMS}
        rowKey={(i) => i.id}
        rowData={(i) => ({ 'data-id': i.id, 'data-flag': i.flag ? 'yes' : undefined })}
      />,
    );
    const table = root.querySelector('table[data-testid="things"]');
    expect(table?.getAttribute('data-total')).toBe('2');
    expect(table?.querySelector('caption')?.textContent).toBe('Things');
    expect(table?.querySelector('caption')?.hasAttribute('class')).toBe(false);
    const heads = Array.from(table?.querySelectorAll('thead tr th') ?? []);
    expect(heads.map((th) => [th.textContent, th.getAttribute('scope')])).toEqual([
      ['Name', 'col'],
      ['Count', 'col'],
      ['Actions', 'col'],
    ]);
    expect(heads[2]?.querySelector('.visually-hidden')?.textContent).toBe('Actions');
    expect(heads[0]?.querySelector('.visually-hidden')).toBeNull();
    const rows = Array.from(table?.querySelectorAll<HTMLElement>('tbody tr') ?? []);
    expect(rows.map((r) => r.dataset.id)).toEqual(['a', 'b']);
    expect(rows.map((r) => r.hasAttribute('data-flag'))).toEqual([true, false]);
    expect(rows.map((r) => r.querySelectorAll('td').length)).toEqual([3, 3]);
    expect(rows[0]?.querySelector('[data-testid="count"] strong')?.textContent).toBe('1');
    expect(rows[1]?.querySelector('button')).toBeNull();
  });

  it('hides the caption visually only when asked', async () => {
    const root = await mount(<DataTable caption="Hidden" hideCaption columns={COLUMNS} items={[]} rowKey={(i) => i.id} />);
    expect(root.querySelector('caption')?.className).toBe('visually-hidden');
    expect(root.querySelectorAll('tbody tr')).toHaveLength(0);
  });
});
