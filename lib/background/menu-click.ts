// A context-menu click: "Copy skill context" copies every usable approved skill of the page's
// origin; an "Insert skill context" item inserts one skill into the chat frame it was opened in.
// Both take their bytes from the hand-off gate (hand-off-routes.ts), like every other path.
import type { WorkerState } from './worker-state';
import { httpOrigin } from '../origin';
import { approvedList } from './approved-list';
import type { MenuTab } from './deps';
import { contextFor, insertSkill } from './hand-off-routes';
import { isCopyItemId, parseInsertItemId } from './menus';
import type { SenderLike } from './sender';

export async function onMenuClick(worker: WorkerState, menuItemId: string, tab: MenuTab | null, frameId = 0): Promise<boolean> {
  // The menu was used in this tab: the private-window rule follows that tab's flag.
  const sender: SenderLike = tab ? { tab } : {};
  if (isCopyItemId(menuItemId)) {
    // The page's own origin, whichever copy item it showed (an item shows on every port of its host).
    const origin = tab?.url ? httpOrigin(tab.url) : null;
    if (!origin) return false;
    const approved = (await approvedList(worker)).filter((a) => a.origin === origin && a.usable);
    const blocks: string[] = [];
    for (const a of approved) {
      const context = await contextFor(worker, a.origin, a.url, sender, { kind: 'clipboard' });
      if (context.ok) blocks.push(context.context);
    }
    if (blocks.length === 0) return false;
    return worker.platform.copyText(blocks.join('\n\n'));
  }
  const item = parseInsertItemId(menuItemId);
  if (item === null || tab?.id === undefined) return false;
  const result = await insertSkill(worker, { origin: item.origin, url: item.url, frame: { tabId: tab.id, frameId }, expectedOrigin: null }, sender);
  return result.ok;
}
