// docs/desktop.md's table of manifest places, built from lib/desktop/protocol/browser-places.ts: one row per
// browser with its Linux folder, macOS folder and Windows key ("—" where the browser has none there).
import { BROWSER_PLACES, REGISTRY_PLACES } from '../../lib/desktop/protocol/browser-places';

const CHANNEL = /^(.*) (Beta|Dev|Canary)$/;

function windowsCell(browser: string): string {
  const own = REGISTRY_PLACES.find((r) => r.browser === browser);
  if (own !== undefined) return `\`${own.key}\``;
  // A channel of a browser reads the browser's own key (one key per vendor on Windows).
  const base = CHANNEL.exec(browser)?.[1];
  return base !== undefined && REGISTRY_PLACES.some((r) => r.browser === base) ? `${base}'s key` : '—';
}

export function browserPlacesTable(): string {
  const names = [...new Set([...BROWSER_PLACES.linux, ...BROWSER_PLACES.darwin].map((p) => p.browser))];
  const folder = (platform: 'linux' | 'darwin', browser: string): string => {
    const place = BROWSER_PLACES[platform].find((p) => p.browser === browser);
    return place === undefined ? '—' : `\`~/${place.folder}/\``;
  };
  const always = (browser: string): boolean => [...BROWSER_PLACES.linux, ...BROWSER_PLACES.darwin].some((p) => p.browser === browser && p.always === true);
  const rows = names.map((b) => `| ${b} | ${folder('linux', b)} | ${folder('darwin', b)} | ${windowsCell(b)} | ${always(b) ? 'always' : "when the browser's own folder is there"} |`);
  return ['| browser | Linux folder | macOS folder | Windows key | folder written |', '|---|---|---|---|---|', ...rows].join('\n');
}
