// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { Options } from '../../../../components/options/Options';
import { click, fakeBackground, mount, optionsEnv, optionsPageHandlers } from '../harness';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the shortcuts in the options page', () => {
  it('lists each command with its keys as the browser has them, and where to change them', async () => {
    const bg = fakeBackground(optionsPageHandlers());
    const env = optionsEnv(bg.client, {
      shortcuts: {
        browser: 'chrome',
        list: async () => [
          { name: '_execute_action', description: '', shortcut: 'Alt+Shift+K' },
          { name: 'open-library', description: 'Open all my skills beside the page', shortcut: '' },
        ],
      },
    });
    const root = await mount(<Options env={env} />);
    expect(root.querySelector('nav a[href="#shortcuts"]')?.textContent).toBe('Keyboard shortcuts');
    const rows = Array.from(root.querySelectorAll('[data-testid="shortcuts"] [data-command]')).map((r) => r.textContent);
    expect(rows).toEqual(['Open the Skillpin popupAlt+Shift+K', 'Open all my skills beside the pageNot set']);
    expect(root.querySelector('#shortcuts')?.textContent).toContain('chrome://extensions/shortcuts');
  });

  it('says when the browser could not answer, and is absent where there are no shortcuts', async () => {
    const bg = fakeBackground(optionsPageHandlers());
    const failing = optionsEnv(bg.client, { shortcuts: { browser: 'firefox', list: async () => Promise.reject(new Error('no commands API')) } });
    let root = await mount(<Options env={failing} />);
    expect(root.querySelector('#shortcuts')?.textContent).toContain("Couldn't read the shortcuts: no commands API");
    expect(root.querySelector('#shortcuts')?.textContent).toContain('Manage Extension Shortcuts');
    root = await mount(<Options env={optionsEnv(bg.client)} />);
    expect(root.querySelector('#shortcuts')).toBeNull();
  });

  it('offers a button that opens the shortcut page where the browser allows it, and says when it refused', async () => {
    const bg = fakeBackground(optionsPageHandlers());
    let opened = 0;
    const env = optionsEnv(bg.client, {
      shortcuts: {
        browser: 'chrome',
        list: async () => [],
        open: async () => {
          opened++;
          if (opened > 1) throw new Error('not allowed');
        },
      },
    });
    const root = await mount(<Options env={env} />);
    await click(root.querySelector('[data-action="open-shortcuts"]'));
    expect(opened).toBe(1);
    await click(root.querySelector('[data-action="open-shortcuts"]'));
    expect(root.querySelector('#shortcuts')?.textContent).toContain('did not open its shortcut page (not allowed)');
    // A browser that does not let an extension open it: no button, the way there in words.
    const firefox = await mount(<Options env={optionsEnv(bg.client, { shortcuts: { browser: 'firefox', list: async () => [] } })} />);
    expect(firefox.querySelector('[data-action="open-shortcuts"]')).toBeNull();
    expect(firefox.querySelector('#shortcuts')?.textContent).toContain('Manage Extension Shortcuts');
  });
});
