import { render } from 'preact';
import { browser } from 'wxt/browser';
import { createClient } from '../../components/shared/client';
import { writeClipboard } from '../../components/shared/clipboard';
import { Options } from '../../components/options/Options';
import { withEarlyAnswers } from '../../components/options/early';
import type { OptionsEnv } from '../../components/options/env';
import '../../components/shared/base.css';
import '../../components/options/options.css';

function download(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const env: OptionsEnv = {
  // The lists and settings are asked for now, while the page draws, not after its first paint.
  client: withEarlyAnswers(createClient((msg) => browser.runtime.sendMessage(msg)), ['pinsList', 'settingsGet', 'approvalsList', 'reportsList']),
  clipboard: writeClipboard,
  download,
  popupUrl: '/popup.html',
};

const initialOrigin = new URLSearchParams(location.search).get('origin');
const root = document.getElementById('app');
if (root) render(<Options env={env} initialOrigin={initialOrigin} />, root);
