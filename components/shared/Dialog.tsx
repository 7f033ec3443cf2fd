// A modal confirmation inside the page: focus moves into it, Tab stays inside it,
// Escape and the cancel button close it, and focus returns where it was.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface Props {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  cancelLabel: string;
  /** Makes the confirm button look like a warning. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ title, children, confirmLabel, cancelLabel, danger, onConfirm, onCancel }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    return () => {
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
      return;
    }
    if (e.key !== 'Tab' || !box.current) return;
    const items = Array.from(box.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    // Tab past the last item, or Shift+Tab before the first, wraps to the other end.
    const [edge, other] = e.shiftKey ? [items[0], items[items.length - 1]] : [items[items.length - 1], items[0]];
    const active = document.activeElement;
    if (active === edge || !box.current.contains(active)) {
      e.preventDefault();
      other?.focus();
    }
  }

  return (
    <div class="dialog-backdrop" onClick={(e) => e.target === e.currentTarget && onCancel()}>
      <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} ref={box} onKeyDown={onKeyDown}>
        <h2 id={`${id}-t`} class="dialog-title">
          {title}
        </h2>
        <div id={`${id}-d`} class="dialog-body">
          {children}
        </div>
        <div class="dialog-actions">
          <button type="button" ref={cancelRef} onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" class={danger ? 'btn-danger' : 'btn-primary'} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
