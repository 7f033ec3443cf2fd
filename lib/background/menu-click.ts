// A context-menu click: "Copy skill context" copies every usable approved skill of the page's
// origin; an "Insert skill context" item inserts one skill into the chat frame it was opened in.
import type { ServiceContext } from './context';
import { httpOrigin } from '../chat/sites';
import type { MenuTab } from './deps';
import { insertIntoChat } from './hand-off';
import { parseInsertItemId } from './menus';
import type { SenderLike } from './sender';
import { approvedList, contextFor } from './skill-access';

export async function onMenuClick(ctx: ServiceContext, menuItemId: string, tab: MenuTab | null, frameId = 0): Promise<boolean> {
  const tabId = tab?.id ?? null;
  // The menu was used in this tab: a probe it needs follows that tab's private flag.
  const sender: SenderLike = tab ? { tab } : {};
  if (menuItemId === 'skillpin-copy') {
    const origin = tab?.url ? httpOrigin(tab.url) : null;
    if (!origin) return false;
    const approved = (await approvedList(ctx)).filter((a) => a.origin === origin && a.usable);
    const blocks: string[] = [];
    for (const a of approved) {
      const context = await contextFor(ctx, a.origin, a.url, sender);
      if (context.ok) blocks.push(context.context);
    }
    if (blocks.length === 0) return false;
    return ctx.platform.copyText(blocks.join('\n\n'));
  }
  const item = parseInsertItemId(menuItemId);
  if (item === null || tabId === null) return false;
  const context = await contextFor(ctx, item.origin, item.url, sender);
  if (!context.ok) return false;
  const { chatSites } = await ctx.settings.effective();
  const result = await insertIntoChat(ctx.platform, chatSites, { tabId, frameId }, context.context, null);
  return result.ok;
}
