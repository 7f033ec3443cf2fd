// The paths by which a skill's content leaves the extension as a skill-context block: the popup's
// Copy (the popup writes the clipboard) and Insert, the context menu's Copy and Insert. Each takes
// its bytes from the hand-off gate (hand-off-gate.ts release) and from nowhere else.
import { buildSkillContext } from '../skill-context/block';
import type { ContextResult, InsertResult } from '../messages';
import type { WorkerState } from './worker-state';
import { deliverToChat, type FrameTarget } from './chat-delivery';
import { release, type HandOffTarget, type Released } from './hand-off-gate';
import type { SenderLike } from './sender';

/** The skill-context block of released bytes (PRODUCT.md §6), with the header the settings choose. */
async function contextOf(worker: WorkerState, origin: string, url: string, r: Released): Promise<string> {
  const { shortHeader } = await worker.settings.effective();
  return buildSkillContext({
    header: shortHeader ? 'short' : 'full',
    origin,
    name: r.skill.name,
    url,
    digestLf: r.stored.digestLf,
    digestRaw: r.stored.digestRaw,
    signatureState: r.signatureState,
    keyFingerprint: r.approval.keyFingerprint,
    bytes: r.stored.bytes,
  });
}

/** The context block of an approved skill for `target`, or why not. */
export async function contextFor(worker: WorkerState, origin: string, url: string, sender: SenderLike | null, target: HandOffTarget = { kind: 'clipboard' }): Promise<ContextResult> {
  const r = await release(worker, { origin, url, sender, target });
  if (!r.ok) return { ok: false, error: r.error, message: r.message };
  return { ok: true, context: await contextOf(worker, origin, url, r), name: r.skill.name };
}

type InsertRequest = { origin: string; url: string; frame: FrameTarget; expectedOrigin: string | null; quiet?: boolean };

/** Inserts an approved skill into a chat frame; `expectedOrigin` is the chat site the popup offered (null: the frame's own). */
export async function insertSkill(worker: WorkerState, req: InsertRequest, sender: SenderLike | null): Promise<InsertResult> {
  const r = await release(worker, { origin: req.origin, url: req.url, sender, target: { kind: 'chat', frame: req.frame, expectedOrigin: req.expectedOrigin } });
  if (!r.ok) return { ok: false, method: 'none', message: r.message };
  return deliverToChat(worker.platform, req.frame, await contextOf(worker, req.origin, req.url, r), r.chatOrigin as string, req.quiet === true);
}
