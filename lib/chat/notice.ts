// A small, dismissible message inside the page, in a closed shadow root so the site's
// styles cannot hide or restyle it. Text only, no remote resources; its words come from the
// extension's catalogue (lib/i18n works in the content script).
import { t } from '../i18n';

export const NOTICE_TAG = 'skillpin-notice';

export interface NoticeHandle {
  host: HTMLElement;
  root: ShadowRoot;
  dismiss(): void;
}

export interface NoticeOptions {
  tone: 'info' | 'warning';
  /** Removes the message after this many ms; 0 keeps it until dismissed. */
  timeoutMs?: number;
}

const STYLE = `
:host { all: initial; }
.box { position: fixed; right: 16px; bottom: 16px; z-index: 2147483647; max-width: 380px;
  display: flex; gap: 12px; align-items: flex-start; padding: 12px 14px; border-radius: 8px;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111; background: #fff;
  box-shadow: 0 4px 18px rgba(0,0,0,.25); border-left: 4px solid #2563eb; }
.box.warning { border-left-color: #d97706; }
.text { flex: 1; white-space: pre-wrap; }
.title { font-weight: 600; display: block; margin-bottom: 2px; }
button { all: unset; cursor: pointer; font-size: 18px; line-height: 1; padding: 0 2px; color: #444; }
button:focus-visible { outline: 2px solid #2563eb; }
`;

/** Shows `text` in the page (replacing an earlier Skillpin message). Null when the page has no root. */
export function showNotice(doc: Document, text: string, options: NoticeOptions): NoticeHandle | null {
  const parent = doc.documentElement;
  if (parent === null) return null;
  for (const old of Array.from(doc.querySelectorAll(NOTICE_TAG))) old.remove();
  const host = doc.createElement(NOTICE_TAG);
  const root = host.attachShadow({ mode: 'closed' });
  const style = doc.createElement('style');
  style.textContent = STYLE;
  const box = doc.createElement('div');
  box.className = options.tone === 'warning' ? 'box warning' : 'box';
  box.setAttribute('role', options.tone === 'warning' ? 'alert' : 'status');
  const body = doc.createElement('div');
  body.className = 'text';
  const title = doc.createElement('span');
  title.className = 'title';
  title.textContent = 'Skillpin';
  body.append(title, doc.createTextNode(text));
  const close = doc.createElement('button');
  close.type = 'button';
  close.setAttribute('aria-label', t('notice_dismiss'));
  close.textContent = '×';
  box.append(body, close);
  root.append(style, box);

  let timer: ReturnType<typeof setTimeout> | null = null;
  const dismiss = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    host.remove();
  };
  close.addEventListener('click', dismiss);
  parent.appendChild(host);
  const timeout = options.timeoutMs ?? 0;
  if (timeout > 0) timer = setTimeout(dismiss, timeout);
  return { host, root, dismiss };
}
