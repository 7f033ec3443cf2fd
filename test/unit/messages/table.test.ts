// lib/messages/: one definition per request type (access, what it changes, its slice, its
// field schemas), and the settings messages checked with the store's own definition of Settings.
import { describe, expect, it } from 'vitest';
import { changesOf, isPrivileged, messageTable, parseRequest, requestTypes, type Concern, type FieldChecks, type MessageDefinition } from '../../../lib/messages';
import { createHandlers } from '../../../lib/background/handlers';
import { approvalHandlers } from '../../../lib/background/handlers/approvals';
import { keyHandlers } from '../../../lib/background/handlers/keys';
import { reportHandlers } from '../../../lib/background/handlers/reports';
import { settingsHandlers } from '../../../lib/background/handlers/settings';
import { transferHandlers } from '../../../lib/background/handlers/transfer';
import { desktopHandlers } from '../../../lib/background/handlers/desktop';
import type { Handler, Slice } from '../../../lib/background/handlers/types';
import type { WorkerState } from '../../../lib/background/worker-state';
import { isCompleteSettings, readSettings } from '../../../lib/store/settings';
import { DEFAULT_SETTINGS } from '../../../lib/types';
import { z } from '../../../lib/input';

// Building the slices only makes closures: nothing in the context is called.
const ctx = { scheduler: {}, platform: {}, clock: {}, deps: {} } as unknown as WorkerState;

const SLICES: Record<Concern, (c: WorkerState) => object> = {
  reports: reportHandlers,
  approvals: approvalHandlers,
  keys: keyHandlers,
  settings: settingsHandlers,
  transfer: transferHandlers,
  desktop: desktopHandlers,
};

describe('one definition per request type', () => {
  it('the public types are the three anyone inside the extension may send; every other one is privileged', () => {
    expect(
      requestTypes()
        .filter((t) => !isPrivileged(t))
        .sort(),
    ).toEqual(['skillpin:probe', 'skillpin:ready', 'skillpin:report']);
  });

  it('the requests that change state, and which kind each announces', () => {
    const changing = Object.fromEntries(
      requestTypes()
        .filter((t) => changesOf(t) !== null)
        .map((t) => [t, changesOf(t)]),
    );
    expect(changing).toEqual({
      'skillpin:approve': 'trust',
      'skillpin:confirm-findings': 'trust',
      'skillpin:revoke': 'trust',
      'skillpin:trust-key': 'trust',
      'skillpin:pin-forget': 'trust',
      'skillpin:key-revoke': 'trust',
      'skillpin:import': 'trust',
      'skillpin:settings-set': 'settings',
      'skillpin:settings-update': 'settings',
    });
  });

  it('each slice answers exactly the types its concern names, and together they answer every type once', () => {
    const seen: string[] = [];
    for (const [concern, build] of Object.entries(SLICES) as [Concern, (c: WorkerState) => object][]) {
      const keys = Object.keys(build(ctx)).sort();
      expect(keys, concern).toEqual(
        requestTypes()
          .filter((t) => messageTable()[t].concern === concern)
          .sort(),
      );
      seen.push(...keys);
    }
    expect(seen.sort()).toEqual([...requestTypes()].sort());
    expect(new Set(seen).size).toBe(seen.length);
    const all = createHandlers(ctx);
    for (const t of requestTypes()) expect(typeof all[t], t).toBe('function');
  });

  it('the compiler refuses a slice with a handler of another concern, or one missing', () => {
    const approve: Handler<'skillpin:approve'> = async () => ({ ok: true });
    const pick = (s: Slice<'transfer'>) => s['skillpin:backup'];
    const transfer = transferHandlers(ctx);
    // @ts-expect-error — skillpin:approve belongs to the approvals slice
    pick({ ...transfer, 'skillpin:approve': approve } satisfies Slice<'transfer'>);
    const { 'skillpin:backup': _gone, ...missing } = transfer;
    // @ts-expect-error — skillpin:backup has no handler
    pick(missing);
    expect(pick(transfer)).toBeTypeOf('function');
  });

  it('the compiler refuses field schemas that leave out a request field, optional ones included, or check a field the request has not', () => {
    const yes = z.unknown();
    // @ts-expect-error — skillpin:report's clickedTab (optional) has no check
    const missing: MessageDefinition<'skillpin:report'>['fields'] = { origin: yes };
    // @ts-expect-error — skillpin:revoke's url has no check
    const missingRequired: MessageDefinition<'skillpin:revoke'>['fields'] = { origin: yes };
    // @ts-expect-error — skillpin:revoke has no field `tabId`
    const extra: MessageDefinition<'skillpin:revoke'>['fields'] = { origin: yes, url: yes, tabId: yes };
    const complete: FieldChecks<{ origin: string; clickedTab?: number }> = { origin: yes, clickedTab: yes };
    expect([missing, missingRequired, extra].map((f) => Object.keys(f).length)).toEqual([1, 1, 3]);
    // The table itself is checked the same way: skillpin:report checks both its fields.
    expect(Object.keys(messageTable()['skillpin:report'].fields).sort()).toEqual(Object.keys(complete).sort());
  });

  it('a request of an unknown type, or with a field that fails its check, is refused', () => {
    expect(parseRequest({ type: 'skillpin:nope' })).toBeNull();
    expect(parseRequest({ type: 'toString' })).toBeNull();
    expect(parseRequest({ type: 'skillpin:report', origin: 'https://a.example/path' })).toBeNull();
    expect(parseRequest({ type: 'skillpin:report', origin: 'https://a.example' })).not.toBeNull();
    for (const t of requestTypes()) {
      for (const field of Object.keys(messageTable()[t].fields as Record<string, unknown>)) {
        // A function is never a valid value of any field.
        expect(parseRequest({ type: t, [field]: () => 1 }), `${t}.${field}`).toBeNull();
      }
    }
  });
});

describe('the settings messages use the store’s definition of Settings', () => {
  const bad: [string, unknown][] = [
    ['paused', 'yes'],
    ['allowList', [1]],
    ['denyList', ['x'.repeat(8193)]],
    ['reviewers', { a: { public_key: 1, registered_at: 'now' } }],
    ['snapshotKeys', [{ origin: 'https://a.example' }]],
    ['chatSites', ['https://a.example/path']],
  ];

  it('settings-set takes complete settings (chatSites may be absent) and refuses what the store would refuse', () => {
    expect(parseRequest({ type: 'skillpin:settings-set', settings: structuredClone(DEFAULT_SETTINGS) })).not.toBeNull();
    const { chatSites: _c, ...legacy } = structuredClone(DEFAULT_SETTINGS);
    expect(parseRequest({ type: 'skillpin:settings-set', settings: legacy })).not.toBeNull();
    for (const [field, value] of bad) {
      const settings = { ...structuredClone(DEFAULT_SETTINGS), [field]: value };
      expect(isCompleteSettings(settings), field).toBe(false);
      expect(readSettings(settings).invalid, field).toEqual([field]);
      expect(parseRequest({ type: 'skillpin:settings-set', settings }), field).toBeNull();
      expect(parseRequest({ type: 'skillpin:settings-update', changes: { [field]: value } }), field).toBeNull();
    }
  });

  it('settings-update takes any subset of known fields, each checked the same way', () => {
    expect(parseRequest({ type: 'skillpin:settings-update', changes: {} })).not.toBeNull();
    expect(parseRequest({ type: 'skillpin:settings-update', changes: { paused: true, denyList: ['*.a.example'] } })).not.toBeNull();
    expect(parseRequest({ type: 'skillpin:settings-update', changes: { unknown: true } })).toBeNull();
  });
});
