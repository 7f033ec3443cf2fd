// The runner's detectors, shown to fire: a page that reaches a trap URL, a sentinel set in an
// extension page, a request from an extension page (blocked by its CSP, and recorded), an
// active element slipped into the rendered SKILL.md, a privileged request from an extension
// page (answered, so `forbidden` elsewhere is about the sender). Returns the detectors that
// stayed silent (empty when all work).
import { indexDoc, json, markdown, rawDigest, html } from '../../hostile/site-kit';
import type { HostileCase } from '../../hostile/types';
import { send } from './extension';
import { playSite, trapProblem } from './hostile-play';
import type { HostileSession } from './hostile-session';
import { checkRendered, openDetails, openPopup } from './hostile-views';

const SENTINEL = '__skillpinSelfCheck';
const BODY = '---\nname: probe\ndescription: "self check"\n---\n\n# probe\n\nPlain text.\n';

const SELF_CHECK: HostileCase = {
  id: 'runner-self-check',
  category: 'rendering',
  title: 'The runner sees what it must see',
  browserOnly: true,
  site: () => ({
    stages: [
      {
        paths: {
          '/.well-known/agent-skills/index.json': json(indexDoc([{ name: 'probe', type: 'skill-md', description: 'probe', url: '/skills/probe/SKILL.md', digest: `sha256:${rawDigest(BODY)}` }])),
          '/skills/probe/SKILL.md': markdown(BODY),
          '/': html("<!doctype html><script>fetch('/never/self-check-page')</script>"),
        },
      },
    ],
  }),
  expected: { skillStatuses: { probe: 'verified' } },
  browser: { include: true, assert: 'self check', page: '/', sentinel: SENTINEL },
};

export async function silentDetectors(s: HostileSession): Promise<string[]> {
  const silent: string[] = [];
  const p = await playSite(s, SELF_CHECK);
  try {
    await p.page.waitForTimeout(300);
    if (!trapProblem(p)) silent.push('trap hit from the case page not seen');
    const skill = p.report.skills[0];
    if (!skill) return [...silent, 'no skill in the self-check site'];
    const { popup } = await openPopup(s, p.report);
    try {
      await popup.page.evaluate((n) => {
        (window as unknown as Record<string, unknown>)[n] = 'set';
      }, SENTINEL);
      if ((await popup.global(SENTINEL)) === undefined) silent.push('sentinel in the popup not seen');
      const before = p.served.trapHits().length;
      await popup.page.evaluate(
        (url) =>
          fetch(url).then(
            () => 'answered',
            () => 'blocked',
          ),
        `${p.origin}/never/self-check-popup`,
      );
      await popup.page.waitForTimeout(200);
      const csp = await popup.csp();
      if (!csp.some((c) => c.startsWith('connect-src'))) silent.push(`CSP violation of the popup not recorded (${csp.join(', ') || 'none'})`);
      if (p.served.trapHits().length !== before) silent.push('the popup CSP let a request through');
      const d = await openDetails(popup, skill);
      if (d.problems.length > 0) silent.push(...d.problems);
      await popup.page.evaluate(() => {
        const img = document.createElement('img');
        img.alt = 'injected';
        document.querySelector('[data-testid="rendered"]')?.appendChild(img);
      });
      if (!(await checkRendered(popup)).problems.some((x) => x.includes('img'))) silent.push('an <img> in the rendered SKILL.md not seen');
    } finally {
      await popup.page.close();
    }
    const approvals = await send<unknown>(s.extPage, { type: 'skillpin:approvals-list' });
    if (!Array.isArray(approvals)) silent.push('an extension page is refused privileged requests too');
  } finally {
    await p.page.close();
    await p.served.close();
  }
  return silent;
}
