// The hostile-publisher cases of the browser subset (test/hostile/catalogue.ts, browserCases()),
// each played through the built extension in real Chromium: one test per case, titled with the
// case id. One browser is shared by the file; every case serves its own loopback origin, so
// pins, approvals and reports of one case cannot touch another. Results go to
// test-results/hostile-browser.json after every case; `npm run docs` turns them, with the node
// runner's test-results/hostile-node.json, into docs/reliability.md (the run writes no document).
import { test, expect } from '@playwright/test';
import { browserCases } from '../hostile/catalogue';
import { runBrowserCase } from './support/hostile-case';
import { recordBrowserResult } from './support/hostile-results';
import { silentDetectors } from './support/hostile-selfcheck';
import { openSession, type HostileSession } from './support/hostile-session';

const CASES = browserCases();
/** The browser subset the reliability report promises. */
const MIN_BROWSER_CASES = 20;

let session: HostileSession | null = null;

test.beforeAll(async () => {
  session = await openSession();
});

test.afterAll(async () => {
  await session?.close();
  session = null;
});

test(`the browser subset holds at least ${MIN_BROWSER_CASES} cases`, () => {
  expect(CASES.length).toBeGreaterThanOrEqual(MIN_BROWSER_CASES);
});

test('the runner sees trap hits, sentinels, CSP blocks and injected elements', async () => {
  if (!session) throw new Error('no browser session');
  expect(await silentDetectors(session)).toEqual([]);
});

for (const c of CASES) {
  test(c.id, async () => {
    if (!session) throw new Error('no browser session');
    const outcome = await runBrowserCase(session, c);
    recordBrowserResult({ id: c.id, observed: outcome.observed, pass: outcome.pass, problems: outcome.problems });
    expect.soft(outcome.problems, `${c.id}: browser checks`).toEqual([]);
    expect(outcome.observedOutcome, `${c.id}: ${c.title}`).toBe(outcome.expected);
  });
}
