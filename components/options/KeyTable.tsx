// What the two publisher-key tables of the options page share (PRODUCT.md §5): the pins and the
// key history both list a site, a fingerprint, when it was first and last seen and one action
// that needs a confirmation (Forget a pin, Revoke a key). The paging is the caller's (PagedTable
// or PagedTableView); these are the columns (for DataTable) and the confirmed action.
import type { ComponentChild, ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { ActionResult } from '../../lib/messages';
import type { Pin } from '../../lib/types';
import { useAnnounce } from '../shared/Announcer';
import { Dialog } from '../shared/Dialog';
import { Fingerprint } from '../shared/Fingerprint';
import { errorText, formatDate } from '../shared/format';
import type { Column } from './DataTable';

/** What a row of either table shows: a site's key and when it was first and last seen (a pin has them all). */
export type KeyRowItem = Pick<Pin, 'origin' | 'fingerprint' | 'firstSeen' | 'lastSeen'>;

export interface RowAction {
  /** The button's name for its data-action attribute (what the tests click). */
  name: string;
  label: string;
  /** The accessible name, which says which row it acts on. */
  ariaLabel: string;
  onClick: () => void;
}

interface KeyColumnsOptions<T> {
  /** The origin cell's content: the origin as text, or a link to its popup view. */
  originCell: (item: T) => ComponentChild;
  /** The key history's state column, after the fingerprint; absent: no state column. */
  stateText?: (item: T) => string;
  /** Null: nothing to do on this row (an empty cell stays, for the column). */
  action: (item: T) => RowAction | null;
}

/** The columns: site, fingerprint, (state,) first seen, last seen and the row's one action. */
export function keyColumns<T extends KeyRowItem>({ originCell, stateText, action }: KeyColumnsOptions<T>): Column<T>[] {
  const state: Column<T>[] = stateText ? [{ header: t('col_state'), cell: stateText, cellData: { 'data-testid': 'key-state' } }] : [];
  return [
    { header: t('col_origin'), cell: originCell },
    { header: t('col_fingerprint'), cell: (item) => <Fingerprint value={item.fingerprint} /> },
    ...state,
    { header: t('first_seen'), cell: (item) => formatDate(item.firstSeen) },
    { header: t('last_seen'), cell: (item) => formatDate(item.lastSeen) },
    {
      header: t('col_actions'),
      hideHeader: true,
      cell: (item) => {
        const a = action(item);
        return (
          a && (
            <button type="button" class="btn-quiet" onClick={a.onClick} aria-label={a.ariaLabel} data-action={a.name}>
              {a.label}
            </button>
          )
        );
      },
    },
  ];
}

interface ConfirmedActionOptions<T> {
  /** The request, sent once the user confirmed. */
  send: (item: T) => Promise<ActionResult>;
  /** What is announced when the background accepted it. */
  doneText: (item: T) => string;
  /** The dialog: its title, its confirm button and what it explains. */
  dialog: (item: T) => { title: string; confirmLabel: string; children: ComponentChildren };
  /** Called after every attempt, accepted or not, so the lists reload. */
  onChanged: () => void;
}

/**
 * An action that asks first: `ask` opens a danger dialog, confirming sends the request, the
 * outcome or the failure is announced, and the lists reload either way.
 */
export function useConfirmedAction<T>({ send, doneText, dialog, onChanged }: ConfirmedActionOptions<T>) {
  const announce = useAnnounce();
  const [pending, setPending] = useState<T | null>(null);

  async function run(item: T) {
    setPending(null);
    try {
      const res = await send(item);
      if (res.ok) announce(doneText(item), 'success');
      else announce(t('action_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    } catch (err) {
      announce(t('action_failed', errorText(err)), 'error');
    }
    onChanged();
  }

  const shown = pending === null ? null : <Dialog {...dialog(pending)} cancelLabel={t('cancel')} danger onCancel={() => setPending(null)} onConfirm={() => void run(pending)} />;
  // ask opens the confirmation for `item`; dialog is the open confirmation, or null.
  return { ask: (item: T) => setPending(() => item), dialog: shown };
}
