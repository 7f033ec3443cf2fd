// @vitest-environment happy-dom
// The options page's shared key-table pieces (components/options/KeyTable.tsx) on their own:
// the columns' optional state cell and action, and the confirmed action's outcomes.
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { t } from '../../../../lib/i18n';
import type { ActionResult } from '../../../../lib/messages';
import { AnnouncerProvider } from '../../../../components/shared/Announcer';
import { DataTable } from '../../../../components/options/DataTable';
import { keyColumns, useConfirmedAction, type KeyRowItem } from '../../../../components/options/KeyTable';
import { FP_OLD, ORIGIN } from '../../../fixtures/ui/reports';
import { byText, click, mount } from '../harness';

afterEach(() => {
  document.body.innerHTML = '';
});

function Table({ send, changed }: { send: (origin: string) => Promise<ActionResult>; changed: () => void }) {
  const action = useConfirmedAction<string>({
    send,
    doneText: (origin) => `done ${origin}`,
    dialog: (origin) => ({ title: `Really ${origin}?`, confirmLabel: 'Do it', children: <p>explained</p> }),
    onChanged: changed,
  });
  const first: KeyRowItem = { origin: ORIGIN, fingerprint: FP_OLD, firstSeen: 1, lastSeen: 2 };
  const second: KeyRowItem = { origin: 'https://b.example', fingerprint: FP_OLD, firstSeen: 1, lastSeen: 2 };
  return (
    <>
      <DataTable
        caption="with state"
        testId="with-state"
        columns={keyColumns<KeyRowItem>({
          originCell: (k) => k.origin,
          stateText: () => 'Pinned',
          action: (k) => ({ name: 'act', label: 'Act', ariaLabel: `Act on ${k.origin}`, onClick: () => action.ask(k.origin) }),
        })}
        items={[first]}
        rowKey={(k) => k.origin}
        rowData={(k) => ({ 'data-origin': k.origin, 'data-state': 'pinned' })}
      />
      <DataTable
        caption="without"
        testId="without"
        columns={keyColumns<KeyRowItem>({ originCell: () => 'b', action: () => null })}
        items={[second]}
        rowKey={(k) => k.origin}
        rowData={(k) => ({ 'data-origin': k.origin })}
      />
      {action.dialog}
    </>
  );
}

function setup(send: (origin: string) => Promise<ActionResult>) {
  const sent: string[] = [];
  let changes = 0;
  const render = () =>
    mount(
      <AnnouncerProvider>
        <Table
          send={(origin) => {
            sent.push(origin);
            return send(origin);
          }}
          changed={() => changes++}
        />
      </AnnouncerProvider>,
    );
  return { sent, changes: () => changes, render, announced: () => document.querySelector('[data-testid="announcer"]')?.textContent ?? '' };
}

const dialog = () => document.querySelector('[role="alertdialog"]');

describe('keyColumns', () => {
  it('draws the state cell and the action only when given; the row keeps its data attributes', async () => {
    const root = await setup(async () => ({ ok: true })).render();
    const withState = root.querySelector('[data-testid="with-state"]');
    expect(Array.from(withState?.querySelectorAll('thead th') ?? []).map((th) => [th.textContent, th.getAttribute('scope')])).toEqual(
      [t('col_origin'), t('col_fingerprint'), t('col_state'), t('first_seen'), t('last_seen'), t('col_actions')].map((h) => [h, 'col']),
    );
    expect(withState?.querySelector('thead th:last-child .visually-hidden')?.textContent).toBe(t('col_actions'));
    expect(withState?.querySelector('caption')?.textContent).toBe('with state');
    expect(Array.from(root.querySelectorAll('[data-testid="without"] thead th')).map((th) => th.textContent)).toEqual([
      t('col_origin'),
      t('col_fingerprint'),
      t('first_seen'),
      t('last_seen'),
      t('col_actions'),
    ]);
    const [first, second] = Array.from(root.querySelectorAll<HTMLElement>('tbody tr'));
    expect(first?.dataset.origin).toBe(ORIGIN);
    expect(first?.dataset.state).toBe('pinned');
    expect(first?.querySelector('[data-testid="key-state"]')?.textContent).toBe('Pinned');
    expect(first?.querySelector('[data-action="act"]')?.getAttribute('aria-label')).toBe(`Act on ${ORIGIN}`);
    // No state column and no action: five cells, the last one empty.
    expect(second?.querySelectorAll('td')).toHaveLength(5);
    expect(second?.querySelector('[data-testid="key-state"]')).toBeNull();
    expect(second?.querySelector('button')).toBeNull();
  });
});

describe('useConfirmedAction', () => {
  it('asks first; Cancel sends nothing and changes nothing', async () => {
    const h = setup(async () => ({ ok: true }));
    const root = await h.render();
    await click(root.querySelector('[data-action="act"]'));
    expect(dialog()?.textContent).toContain(`Really ${ORIGIN}?`);
    expect(dialog()?.textContent).toContain('explained');
    await click(byText(document, '[role="alertdialog"] button', t('cancel')));
    expect(dialog()).toBeNull();
    expect(h.sent).toEqual([]);
    expect(h.changes()).toBe(0);
  });

  it('confirmed and accepted: sends once, announces it done, the lists reload', async () => {
    const h = setup(async () => ({ ok: true }));
    const root = await h.render();
    await click(root.querySelector('[data-action="act"]'));
    await click(byText(document, '[role="alertdialog"] button', 'Do it'));
    expect(dialog()).toBeNull();
    expect(h.sent).toEqual([ORIGIN]);
    expect(h.announced()).toBe(`done ${ORIGIN}`);
    expect(h.changes()).toBe(1);
  });

  it('refused: the background says why, and the lists still reload', async () => {
    const h = setup(async () => ({ ok: false, error: 'not-found', message: 'no such pin' }));
    const root = await h.render();
    await click(root.querySelector('[data-action="act"]'));
    await click(byText(document, '[role="alertdialog"] button', 'Do it'));
    expect(h.announced()).toBe(t('action_failed', 'no such pin'));
    expect(h.changes()).toBe(1);
  });

  it('refused without a message: the error code, else a generic reason', async () => {
    for (const [res, why] of [
      [{ ok: false, error: 'not-found' }, 'not-found'],
      [{ ok: false }, t('error_unknown')],
    ] as const) {
      const h = setup(async () => res);
      const root = await h.render();
      await click(root.querySelector('[data-action="act"]'));
      await click(byText(document, '[role="alertdialog"] button', 'Do it'));
      expect(h.announced()).toBe(t('action_failed', why));
    }
  });

  it('the request fails: the failure is announced, and the lists still reload', async () => {
    const h = setup(async () => {
      throw new Error('worker gone');
    });
    const root = await h.render();
    await click(root.querySelector('[data-action="act"]'));
    await click(byText(document, '[role="alertdialog"] button', 'Do it'));
    expect(h.announced()).toBe(t('action_failed', 'worker gone'));
    expect(h.changes()).toBe(1);
  });
});
