// @vitest-environment happy-dom
// An origin wraps only after its scheme, a dot or a slash, never inside its port.
import { afterEach, describe, expect, it } from 'vitest';
import '../../../support/dom-shim';
import { Origin, originPieces } from '../../../../components/shared/Origin';
import { mount } from '../harness';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Origin', () => {
  it('keeps the port with the last label and breaks only after dots and slashes', () => {
    expect(originPieces('http://127.0.0.1:33941')).toEqual(['http://', '127.', '0.', '0.', '1:33941']);
    expect(originPieces('https://docs.example.com')).toEqual(['https://', 'docs.', 'example.', 'com']);
    expect(originPieces('http://[::1]:8080')).toEqual(['http://', '[::1]:8080']);
    expect(originPieces('tools.example.org:8443')).toEqual(['tools.', 'example.', 'org:8443']);
    expect(originPieces('https://a.example/path/x')).toEqual(['https://', 'a.', 'example', '/path', '/x']);
    for (const o of ['http://127.0.0.1:33941', 'https://docs.example.com', 'http://[::1]:8080']) expect(originPieces(o).join('')).toBe(o);
  });

  it('shows the whole address, with it in the title', async () => {
    const root = await mount(<Origin origin="http://127.0.0.1:33941" />);
    const el = root.querySelector<HTMLElement>('.origin-text');
    expect(el?.textContent).toBe('http://127.0.0.1:33941');
    expect(el?.getAttribute('title')).toBe('http://127.0.0.1:33941');
    expect(root.querySelectorAll('wbr')).toHaveLength(4);
  });
});
