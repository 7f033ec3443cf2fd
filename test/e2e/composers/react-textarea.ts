// A React 19 controlled <textarea> composer, as DeepSeek and Copilot run: the value
// lives in React state, Enter without Shift sends, and the model is that state.
import { createElement, useState, type KeyboardEvent, type ChangeEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { installProbe, send } from './probe';

export interface TextareaProps {
  id?: string;
  name?: string;
  placeholder: string;
  className?: string;
  'data-testid'?: string;
}

export function mountReactTextarea(site: string, place: HTMLElement, props: TextareaProps): void {
  let state = '';
  const field = (): HTMLTextAreaElement | null => place.querySelector('textarea');
  const probe = installProbe(
    site,
    () => state,
    () => {
      const el = field();
      return el !== null && el.selectionStart === el.value.length && el.selectionEnd === el.value.length;
    },
    field,
  );
  function Composer(): ReturnType<typeof createElement> {
    const [value, setValue] = useState('');
    state = value;
    return createElement('textarea', {
      ...props,
      rows: 2,
      value,
      onChange: (event: ChangeEvent<HTMLTextAreaElement>) => setValue(event.target.value),
      onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => {
        if (event.key === 'Enter' && !event.shiftKey) {
          event.preventDefault();
          send(probe);
        }
      },
    });
  }
  flushSync(() => createRoot(place).render(createElement(Composer)));
  probe.ready = true;
}
