// @vitest-environment happy-dom
// The popup's origin-report state machine (components/popup/use-origin-report.ts) on its own:
// a bare component renders each state it goes through, a fake background answers.
import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import '../../../support/dom-shim';
import { t } from '../../../../lib/i18n';
import type { OriginReport } from '../../../../lib/types';
import { AnnouncerProvider } from '../../../../components/shared/Announcer';
import type { PopupEnv } from '../../../../components/popup/env';
import { useOriginReport, type OriginReportModel, type OriginReportState } from '../../../../components/popup/use-origin-report';
import { FP_NEW, FP_OLD, ORIGIN, makeReport, makeSkill } from '../../../fixtures/ui/reports';
import { fakeBackground, flush, type Handlers } from '../harness';

/** A promise resolved or rejected from the test, for answers that arrive when the test says. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A background answer held until the test releases it, so the states in between can be seen. */
function held<T>() {
  let gate = deferred<T>();
  return {
    handler: () => gate.promise,
    release: async (value: T) => {
      const g = gate;
      gate = deferred<T>();
      await act(() => g.resolve(value));
      await flush();
    },
    fail: async (err: Error) => {
      const g = gate;
      gate = deferred<T>();
      await act(() => g.reject(err));
      await flush();
    },
  };
}

/** The states in the order they were rendered, with consecutive repeats dropped. */
function describeState(s: OriginReportState): string {
  if (s.phase === 'loading') return s.probing ? 'probing' : 'loading';
  if (s.phase === 'error') return `error: ${s.message}`;
  return `ready: ${s.report.skills.map((k) => k.name).join(',')}`;
}

interface HarnessOptions {
  tabId?: number | null;
  readyReport?: PopupEnv['readyReport'];
}

function setup(handlers: Handlers, opts: HarnessOptions = {}) {
  const bg = fakeBackground(handlers);
  const env: PopupEnv = {
    client: bg.client,
    clipboard: async () => true,
    findChatTab: async () => null,
    optionsUrl: '/options.html',
    readyReport: opts.readyReport,
  };
  const states: string[] = [];
  const busy: boolean[] = [];
  const onBusy = (b: boolean) => busy.push(b);
  let model: OriginReportModel | null = null;
  function View({ recheck }: { recheck: number }) {
    const m = useOriginReport({ env, origin: ORIGIN, tabId: opts.tabId === undefined ? 7 : opts.tabId, recheck, onBusy });
    model = m;
    const now = describeState(m.state);
    if (states[states.length - 1] !== now) states.push(now);
    return <p data-testid="state">{now}</p>;
  }
  const root = document.createElement('div');
  document.body.appendChild(root);
  const draw = async (recheck = 0) => {
    await act(() => {
      render(
        <AnnouncerProvider>
          <View recheck={recheck} />
        </AnnouncerProvider>,
        root,
      );
    });
    await flush();
  };
  return {
    bg,
    states,
    busy,
    draw,
    model: () => {
      if (!model) throw new Error('not rendered');
      return model;
    },
    announced: () => root.querySelector('[data-testid="announcer"]')?.textContent ?? '',
    /** Calls one of the hook's functions as an event handler would, then lets the answers that are not held arrive. */
    run: async (fn: (m: OriginReportModel) => Promise<void>) => {
      await act(() => {
        if (!model) throw new Error('not rendered');
        void fn(model);
      });
      await flush();
    },
  };
}

const ONE = makeReport([makeSkill({ name: 'one' })]);
const TWO = makeReport([makeSkill({ name: 'one' }), makeSkill({ id: 'b', name: 'two', url: `${ORIGIN}/b/SKILL.md` })]);

afterEach(() => {
  render(null, document.body);
  document.body.innerHTML = '';
});

describe('first load', () => {
  it('a stored finished report: loading → ready, no probe', async () => {
    const h = setup({ 'skillpin:report': () => ONE, 'skillpin:probe': () => TWO });
    await h.draw();
    expect(h.states).toEqual(['loading', 'ready: one']);
    expect(h.bg.sent.map((m) => m.type)).toEqual(['skillpin:report']);
    expect(h.busy).toEqual([]);
  });

  for (const [label, stored] of [
    ['none', null],
    ['one still probing', makeReport([], { state: 'probing' })],
    ['one never started', makeReport([], { state: 'idle' })],
  ] as const) {
    it(`no usable stored report (${label}): loading → probing → ready, busy while it probes`, async () => {
      const probe = held<OriginReport>();
      const h = setup({ 'skillpin:report': () => stored, 'skillpin:probe': probe.handler });
      await h.draw();
      expect(h.states).toEqual(['loading', 'probing']);
      expect(h.busy).toEqual([true]);
      await probe.release(ONE);
      expect(h.states).toEqual(['loading', 'probing', 'ready: one']);
      expect(h.bg.sent).toEqual([
        { type: 'skillpin:report', origin: ORIGIN },
        { type: 'skillpin:probe', origin: ORIGIN, tabId: 7 },
      ]);
      expect(h.busy).toEqual([true, false]);
    });
  }

  it('a popup with no tab probes without a tab id', async () => {
    const h = setup({ 'skillpin:report': () => null, 'skillpin:probe': () => ONE }, { tabId: null });
    await h.draw();
    expect(h.bg.ofType('skillpin:probe')).toEqual([{ type: 'skillpin:probe', origin: ORIGIN }]);
  });

  it('the report request fails: loading → error, no probe, not busy', async () => {
    const h = setup({
      'skillpin:report': () => {
        throw new Error('worker gone');
      },
      'skillpin:probe': () => ONE,
    });
    await h.draw();
    expect(h.states).toEqual(['loading', 'error: worker gone']);
    expect(h.bg.ofType('skillpin:probe')).toHaveLength(0);
    expect(h.busy).toEqual([]);
  });

  it('an early finished report is the first state: ready at once, nothing sent', async () => {
    const h = setup({ 'skillpin:report': () => TWO, 'skillpin:probe': () => TWO }, { readyReport: () => ONE });
    await h.draw();
    expect(h.states).toEqual(['ready: one']);
    expect(h.bg.sent).toHaveLength(0);
  });

  it('an early answer of no report goes straight to the probe', async () => {
    const probe = held<OriginReport>();
    const h = setup({ 'skillpin:report': () => TWO, 'skillpin:probe': probe.handler }, { readyReport: () => null });
    await h.draw();
    expect(h.states).toEqual(['loading', 'probing']);
    await probe.release(ONE);
    expect(h.states).toEqual(['loading', 'probing', 'ready: one']);
    expect(h.bg.sent.map((m) => m.type)).toEqual(['skillpin:probe']);
  });
});

describe('probing', () => {
  it('a failed probe: probing → error with its message, busy ends; Try again (probe) → ready', async () => {
    const probe = held<OriginReport>();
    const h = setup({ 'skillpin:report': () => null, 'skillpin:probe': probe.handler });
    await h.draw();
    await probe.fail(new Error('network down'));
    expect(h.states).toEqual(['loading', 'probing', 'error: network down']);
    expect(h.busy).toEqual([true, false]);
    await h.run((m) => m.probe());
    expect(h.states).toEqual(['loading', 'probing', 'error: network down', 'probing']);
    await probe.release(ONE);
    expect(h.states).toEqual(['loading', 'probing', 'error: network down', 'probing', 'ready: one']);
    expect(h.busy).toEqual([true, false, true, false]);
  });

  it('the background answers nothing to a probe: an error, not a report', async () => {
    const probe = held<OriginReport>();
    const h = setup({ 'skillpin:report': () => null, 'skillpin:probe': probe.handler });
    await h.draw();
    await probe.release(undefined as unknown as OriginReport);
    expect(h.states).toEqual(['loading', 'probing', "error: Skillpin's background did not answer (skillpin:probe). Close this page and open it again."]);
  });

  it('only the latest probe changes the state: an older answer arriving late is dropped', async () => {
    const answers = [deferred<OriginReport>(), deferred<OriginReport>()];
    let calls = 0;
    const h = setup({ 'skillpin:report': () => ONE, 'skillpin:probe': () => answers[calls++]!.promise });
    await h.draw();
    const first = h.model().probe();
    const second = h.model().probe();
    await flush();
    await act(async () => {
      answers[1]!.resolve(TWO);
      await second;
    });
    await flush();
    await act(async () => {
      answers[0]!.resolve(ONE);
      await first;
    });
    await flush();
    expect(h.states).toEqual(['loading', 'ready: one', 'probing', 'ready: one,two']);
    // Busy ends once, for the latest probe; the overtaken one says nothing.
    expect(h.busy).toEqual([true, true, false]);
  });

  it('Re-check (recheck incremented) probes and announces it; the first render does not', async () => {
    const probe = held<OriginReport>();
    const h = setup({ 'skillpin:report': () => ONE, 'skillpin:probe': probe.handler });
    await h.draw(0);
    expect(h.bg.ofType('skillpin:probe')).toHaveLength(0);
    expect(h.announced()).toBe('');
    await h.draw(1);
    expect(h.states).toEqual(['loading', 'ready: one', 'probing']);
    expect(h.busy).toEqual([true]);
    // Announced once the probe is done, not before.
    expect(h.announced()).toBe('');
    await probe.release(TWO);
    expect(h.busy).toEqual([true, false]);
    expect(h.states).toEqual(['loading', 'ready: one', 'probing', 'ready: one,two']);
    expect(h.bg.ofType('skillpin:probe')).toEqual([{ type: 'skillpin:probe', origin: ORIGIN, tabId: 7 }]);
    expect(h.announced()).toBe(t('rechecked'));
    // The same value again is no new request.
    await h.draw(1);
    expect(h.bg.ofType('skillpin:probe')).toHaveLength(1);
  });
});

describe('reload after a change of the stored state', () => {
  it('reads the report again and shows it without a loading phase', async () => {
    let stored = ONE;
    const h = setup({ 'skillpin:report': () => stored, 'skillpin:probe': () => ONE });
    await h.draw();
    stored = TWO;
    await h.run((m) => m.reload());
    expect(h.states).toEqual(['loading', 'ready: one', 'ready: one,two']);
    expect(h.bg.sent.map((m) => m.type)).toEqual(['skillpin:report', 'skillpin:report']);
  });

  it('a stored report gone meanwhile: probes', async () => {
    let stored: OriginReport | null = ONE;
    const probe = held<OriginReport>();
    const h = setup({ 'skillpin:report': () => stored, 'skillpin:probe': probe.handler });
    await h.draw();
    stored = null;
    await h.run((m) => m.reload());
    expect(h.states).toEqual(['loading', 'ready: one', 'probing']);
    await probe.release(TWO);
    expect(h.states).toEqual(['loading', 'ready: one', 'probing', 'ready: one,two']);
  });

  it('a failed reload: error with its message', async () => {
    let fail = false;
    const h = setup({
      'skillpin:report': () => {
        if (fail) throw new Error('storage closed');
        return ONE;
      },
      'skillpin:probe': () => ONE,
    });
    await h.draw();
    fail = true;
    await h.run((m) => m.reload());
    expect(h.states).toEqual(['loading', 'ready: one', 'error: storage closed']);
  });
});

describe('trusting a new key', () => {
  const trusted = makeReport([makeSkill({ name: 'after-trust' })]);

  it('sends trust-key, announces success and reloads the report', async () => {
    let stored = ONE;
    const h = setup({
      'skillpin:report': () => stored,
      'skillpin:probe': () => ONE,
      'skillpin:trust-key': () => {
        stored = trusted;
        return { ok: true };
      },
    });
    await h.draw();
    await h.run((m) => m.trust(FP_OLD, FP_NEW));
    expect(h.bg.ofType('skillpin:trust-key')).toEqual([{ type: 'skillpin:trust-key', origin: ORIGIN, expectedFingerprint: FP_OLD, newFingerprint: FP_NEW }]);
    expect(h.announced()).toBe(t('trusted_ok'));
    expect(h.states).toEqual(['loading', 'ready: one', 'ready: after-trust']);
  });

  it('a refusal is announced with its message, and the report is still reloaded', async () => {
    const h = setup({
      'skillpin:report': () => ONE,
      'skillpin:probe': () => ONE,
      'skillpin:trust-key': () => ({ ok: false, error: 'pin-mismatch', message: 'the pinned key changed meanwhile' }),
    });
    await h.draw();
    await h.run((m) => m.trust(FP_OLD, FP_NEW));
    expect(h.announced()).toBe(t('trust_failed', 'the pinned key changed meanwhile'));
    expect(h.bg.ofType('skillpin:report')).toHaveLength(2);
  });

  it('a failed request is announced; the report stays as it was', async () => {
    const h = setup({
      'skillpin:report': () => ONE,
      'skillpin:probe': () => ONE,
      'skillpin:trust-key': () => {
        throw new Error('worker gone');
      },
    });
    await h.draw();
    await h.run((m) => m.trust(null, FP_NEW));
    expect(h.announced()).toBe(t('action_failed', 'worker gone'));
    expect(h.bg.ofType('skillpin:report')).toHaveLength(1);
    expect(h.states).toEqual(['loading', 'ready: one']);
  });
});
