// @vitest-environment happy-dom
// Messages that leave: a message goes away by itself after its lifetime (longer
// for an error or one with Undo), not while the pointer or the focus is on it; it has a close
// button; a second message replaces the first and starts its own lifetime; it sits in its own row
// after the page's content, never over it.
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnnouncerProvider, MESSAGE_MS, useAnnounce, type Announce } from '../../../../components/shared/Announcer';
import { setMessageSource } from '../../../../lib/i18n';

setMessageSource(null);

let announce: Announce = () => undefined;
function Grab() {
  announce = useAnnounce();
  return <main data-testid="content">content</main>;
}

const text = () => document.querySelector('[data-testid="announcer"]')?.textContent ?? '';
const box = () => document.querySelector<HTMLElement>('.message');

async function say(...args: Parameters<Announce>) {
  await act(() => announce(...args));
}
async function wait(ms: number) {
  await act(() => {
    vi.advanceTimersByTime(ms);
  });
}

beforeEach(async () => {
  vi.useFakeTimers();
  document.body.innerHTML = '<div id="app"></div>';
  await act(() => {
    render(
      <AnnouncerProvider>
        <Grab />
      </AnnouncerProvider>,
      document.getElementById('app') as HTMLElement,
    );
  });
});

afterEach(() => {
  render(null, document.getElementById('app') as HTMLElement);
  vi.useRealTimers();
});

describe('page messages', () => {
  it('go away by themselves after their lifetime', async () => {
    await say('Copied.', 'success');
    expect(text()).toBe('Copied.');
    await wait(MESSAGE_MS.success - 100);
    expect(text()).toBe('Copied.');
    await wait(200);
    expect(text()).toBe('');
    expect(box()).toBeNull();
  });

  it('an error and a message with an action stay longer', async () => {
    expect(MESSAGE_MS.error).toBeGreaterThan(MESSAGE_MS.success);
    await say('Nope.', 'error');
    await wait(MESSAGE_MS.success + 100);
    expect(text()).toBe('Nope.');
    expect(document.querySelector('[role="alert"] .message')).not.toBeNull();
    await wait(MESSAGE_MS.error);
    expect(text()).toBe('');
    const run = vi.fn();
    await say('Withdrawn.', 'success', { action: { label: 'Undo', run } });
    await wait(MESSAGE_MS.success + 100);
    expect(text()).toBe('Withdrawn.');
  });

  it('have a close button', async () => {
    await say('Saved.', 'success');
    const close = document.querySelector<HTMLButtonElement>('[data-action="message-close"]');
    expect(close?.getAttribute('aria-label')).toBe('Close this message');
    await act(() => {
      close?.click();
    });
    expect(box()).toBeNull();
  });

  it('a second message replaces the first and has a lifetime of its own', async () => {
    await say('First.', 'success');
    await wait(MESSAGE_MS.success - 1000);
    await say('Second.', 'info');
    expect(document.querySelectorAll('.message')).toHaveLength(1);
    expect(text()).toBe('Second.');
    await wait(2000);
    expect(text()).toBe('Second.');
    await wait(MESSAGE_MS.info);
    expect(text()).toBe('');
  });

  it('the same text twice is a new message with a new lifetime', async () => {
    await say('Checked again.', 'info');
    await wait(MESSAGE_MS.info - 500);
    await say('Checked again.', 'info');
    await wait(1000);
    expect(text()).toBe('Checked again.');
  });

  it('stay while the pointer or the focus is on them', async () => {
    await say('Copied.', 'success');
    await act(() => {
      box()?.dispatchEvent(new MouseEvent('mouseenter'));
    });
    await wait(MESSAGE_MS.success * 3);
    expect(text()).toBe('Copied.');
    await act(() => {
      box()?.dispatchEvent(new MouseEvent('mouseleave'));
    });
    await wait(MESSAGE_MS.success + 100);
    expect(text()).toBe('');
  });

  it('the action runs once and closes the message', async () => {
    const run = vi.fn();
    await say('Withdrawn.', 'success', { action: { label: 'Undo', run } });
    await act(() => {
      document.querySelector<HTMLButtonElement>('[data-action="message-action"]')?.click();
    });
    expect(run).toHaveBeenCalledTimes(1);
    expect(box()).toBeNull();
  });

  it('sit in their own row after the content, not over it', async () => {
    await say('Copied.', 'success');
    const area = document.querySelector('.message-area');
    const content = document.querySelector('[data-testid="content"]');
    expect(area?.parentElement?.id).toBe('app');
    expect(content && area ? content.compareDocumentPosition(area) & Node.DOCUMENT_POSITION_FOLLOWING : 0).toBeTruthy();
    // Both live regions are always in the page, so the next message is announced.
    await wait(MESSAGE_MS.success + 100);
    expect(document.querySelectorAll('.message-area [aria-live]')).toHaveLength(2);
  });
});
