// @vitest-environment happy-dom
// The options page says which sites Skillpin may read and how to change it (PRODUCT.md §2.1).
import { afterEach, describe, expect, it } from 'vitest';
import { SiteAccessPanel } from '../../../../components/options/SiteAccessPanel';
import type { SiteAccessSummary } from '../../../../lib/messages';
import { click, fakeBackground, mount, optionsEnv } from '../harness';

afterEach(() => {
  document.body.innerHTML = '';
});

function setup(summary: SiteAccessSummary) {
  const bg = fakeBackground({ 'skillpin:site-access': () => summary });
  const asked: string[][] = [];
  const env = optionsEnv(bg.client, {
    requestAccess: async (p) => {
      asked.push(p);
      return true;
    },
  });
  return { env, asked };
}

describe('SiteAccessPanel', () => {
  it('every site: says so, with how to limit it, and offers nothing to grant', async () => {
    const { env } = setup({ all: true, sites: [], origin: null });
    const root = await mount(<SiteAccessPanel env={env} />);
    const panel = root.querySelector('[data-testid="site-access"]');
    expect(panel?.getAttribute('data-access')).toBe('all');
    expect(panel?.textContent).toContain('may read every site');
    expect(panel?.textContent).toContain('Site access');
    expect(root.querySelector('[data-action="allow-all"]')).toBeNull();
  });

  it('some sites: lists them and offers to allow all', async () => {
    const { env, asked } = setup({ all: false, sites: ['http://127.0.0.1/*', 'https://docs.example/*'], origin: null });
    const root = await mount(<SiteAccessPanel env={env} />);
    expect(root.querySelector('[data-testid="site-access"]')?.getAttribute('data-access')).toBe('some');
    expect([...root.querySelectorAll('[data-testid="site-access-sites"] li')].map((li) => li.textContent)).toEqual(['http://127.0.0.1/*', 'https://docs.example/*']);
    await click(root.querySelector('[data-action="allow-all"]'));
    expect(asked).toEqual([['http://*/*', 'https://*/*']]);
  });

  it('no site (Chrome "On click"): says Skillpin checks none until a site is allowed', async () => {
    const { env } = setup({ all: false, sites: [], origin: null });
    const root = await mount(<SiteAccessPanel env={env} />);
    expect(root.querySelector('[data-testid="site-access"]')?.getAttribute('data-access')).toBe('none');
    expect(root.textContent).toContain('may read no site right now');
  });
});
