// The one gate every path passes by which a skill's content leaves the extension (PRODUCT.md §6,
// §10): the popup's Copy and Insert, the context menu's Copy and Insert, Export for upload, the
// desktop mirror, and any path added later. lib/messages/ names, per request type, where its
// content goes (`handsOff`); the menus do the same (menus.ts MENU_HAND_OFFS), and so does the
// background's own path to the desktop program (desktop-mirror.ts DESKTOP_HAND_OFFS). A path gets
// the approved bytes only from release(), after these checks, in this order:
//
//   the organisation's policy is known → the site is not excluded by the deny list or the
//   allow-list-only rule → not about a private window unless the user allowed them → the skill is
//   listed, approved, usable, its current content is the approved content (SKILL.md and, for an
//   archive, every file), the policy allows its status (requireSignedSkills) and the approval is
//   bound to the key the administrator pinned for the site, if any → the approved bytes are stored
//   and still hash to the approved digest → what those bytes can do, judged by the rule set in force,
//   is confirmed for where they go (PRODUCT.md §6.1: acts on its own, every route; can act, export
//   and the desktop program) → the target is one it may go to now
//   (a chat target: the frame shows a chat site, the one the popup offered; the desktop program:
//   the user turned desktop agents on)
//
// The desktop mirror is judged on the report this browser has: it never probes a site for it.
//
// Nothing else reads bytes for a hand-off: buildSkillContext and exportSkill are called only from
// the modules that take a Released (test/unit/background/hand-off-gate.routes.test.ts).
import { approvedBytes } from '../probe/approved-bytes';
import { urlOf } from '../origin';
import { listMatches } from '../scheduler/should-probe';
import { reviewStored } from '../probe/skill-review';
import { confirmationNeeded, type ReachRoute, unconfirmed } from '../review';
import { type ManagedPolicy, managedKeyFor } from '../store/policy';
import type { StoredSkill } from '../store/records';
import type { Approval, Finding, Settings, SkillReport } from '../types';
import { lfNormalize } from '../verify/digest';
import { sha256, toHex } from '../verify/sha256';
import type { WorkerState } from './worker-state';
import { chatTarget, type FrameTarget } from './chat-delivery';
import { findSkill, handOff, no, type Refusal, type Verdict } from './opt-in-rules';
import type { SenderLike } from './sender';
import { reportFor } from './skill-access';
import { t } from '../i18n';
import { kindWords } from '../i18n/finding';

export type HandOffTarget =
  | { kind: 'clipboard' }
  | { kind: 'download' }
  /** `expectedOrigin`: the chat site the popup offered (null: any chat site, e.g. the menu of that frame). */
  | { kind: 'chat'; frame: FrameTarget; expectedOrigin: string | null }
  /** The desktop program (docs/desktop.md), through the background's mirror. */
  | { kind: 'desktop' };

export interface HandOffRequest {
  origin: string;
  url: string;
  target: HandOffTarget;
  /** Who asked: an extension page or a menu click in a tab (the private-window rule); null: the background. */
  sender: SenderLike | null;
}

/** What a path may hand on: the approved bytes, checked just now. */
export interface Released {
  skill: SkillReport;
  approval: Approval;
  stored: StoredSkill;
  signatureState: 'verified-signed' | 'verified' | 'unverified';
  /** For a chat target: the chat site its frame shows now. */
  chatOrigin: string | null;
  /** The request is about a private window: the bytes came from the private windows' store, and nothing of it is recorded on disk. */
  private: boolean;
}

export type ReleaseResult = Verdict<Released>;

/** The refusals in the browser's language (lib/i18n: the extension's i18n API answers in the worker too). */
export const policyPendingMessage = (): string => t('err_policy_pending');

/**
 * Whether an approved skill may be handed on now, by the rules that need no bytes and no target:
 * the list of approved skills and the menus show exactly what release() would let through.
 */
export function handOffVerdict(skill: SkillReport | null, origin: string, policy: ManagedPolicy | null, settings: Settings): ReturnType<typeof handOff> {
  if (policy === null) return no('policy-pending', policyPendingMessage());
  if (excluded(origin, settings)) return no('site-excluded', t('err_site_excluded'));
  const verdict = handOff(skill, { requireSigned: policy.requireSigned });
  // A key the administrator pinned for the site binds every approval there at once, not at the next probe.
  const managed = managedKeyFor(policy, origin);
  if (verdict.ok && managed !== null && verdict.approval.keyFingerprint !== managed.fingerprint) return no('policy-key', t('err_policy_key'));
  return verdict;
}

/** Where a target's bytes go: a chat (the SKILL.md text), or a place that can run the files (PRODUCT.md §6.1). */
export function reachOf(target: HandOffTarget): ReachRoute {
  return target.kind === 'chat' || target.kind === 'clipboard' ? 'chat' : 'computer';
}

function needsConfirmation(missing: readonly Finding[]): { ok: false } & Refusal {
  // Most serious first (the review's order): each kind in the user's words, with the first file it is in.
  const byKind = new Map<string, string>();
  for (const f of missing) if (!byKind.has(f.kind)) byKind.set(f.kind, `${kindWords(f.kind)} (${f.file})`);
  const what = [...byKind.values()].slice(0, 3).join('; ') + (byKind.size > 3 ? '; …' : '');
  return no('needs-confirmation', t('err_needs_confirmation', what));
}

/** The deny list names the site, or only allow-listed sites are used and it is not one. */
function excluded(origin: string, settings: Settings): boolean {
  const u = urlOf(origin);
  if (u === null) return true;
  return listMatches(settings.denyList, u) || (settings.allowListOnly && !listMatches(settings.allowList, u));
}

/** The approved bytes still hash to the approved digest (a store that changed under us hands nothing on). */
async function intact(stored: StoredSkill, approval: Approval): Promise<boolean> {
  return toHex(await sha256(lfNormalize(stored.bytes))) === approval.digestLf && stored.digestLf === approval.digestLf;
}

async function checkTarget(worker: WorkerState, target: HandOffTarget, settings: Settings): Promise<Verdict<{ chatOrigin: string | null }>> {
  if (target.kind === 'desktop') return settings.desktopMirror ? { ok: true, chatOrigin: null } : no('desktop-off', t('err_desktop_off'));
  if (target.kind !== 'chat') return { ok: true, chatOrigin: null };
  const chat = await chatTarget(worker.platform, settings.chatSites, target.frame, target.expectedOrigin);
  if (!chat.ok) return no('not-a-chat', chat.message);
  // A chat in a private window gets nothing unless the user allowed private windows.
  if (!settings.probeInPrivate && (await worker.isPrivate(chat.origin, {}, target.frame.tabId))) return no('private-window', t('err_private'));
  return { ok: true, chatOrigin: chat.origin };
}

/** The one way to the bytes of a skill that is about to leave the extension. Never throws for a refusal. */
export async function release(worker: WorkerState, req: HandOffRequest): Promise<ReleaseResult> {
  const policy = await worker.policy();
  if (policy === null) return no('policy-pending', policyPendingMessage());
  const settings = await worker.settings.effective();
  const priv = await worker.isPrivate(req.origin, req.sender);
  if (!settings.probeInPrivate && priv) return no('private-window', t('err_private'));
  // Before the report: an excluded site is not probed for it either.
  if (excluded(req.origin, settings)) return no('site-excluded', t('err_site_excluded'));
  // The mirror follows what this browser has seen; every other path may need the site's first report.
  const report = req.target.kind === 'desktop' ? await worker.currentReport(req.origin, priv) : await reportFor(worker, req.origin, req.sender);
  const verdict = handOffVerdict(findSkill(report, req.url), req.origin, policy, settings);
  if (!verdict.ok) return verdict;
  // The stored record of exactly the approved content: for an archive its files too, never a newer
  // archive's that has the same SKILL.md (lib/probe/approved-bytes.ts).
  const stored = await approvedBytes(await worker.storeOf(priv), verdict.approval);
  if (!stored) return no('bytes-missing', t('err_bytes_missing'));
  if (!(await intact(stored, verdict.approval))) return no('bytes-changed', t('err_bytes_changed'));
  // What the bytes can do, under the rule set in force: nothing that acts on its own (on any route), or
  // can act on a computer (export, the desktop program), leaves without the user's confirmation.
  const missing = unconfirmed(confirmationNeeded(reviewStored(stored), reachOf(req.target)), verdict.approval.review?.confirmed);
  if (missing.length > 0) return needsConfirmation(missing);
  const target = await checkTarget(worker, req.target, settings);
  if (!target.ok) return target;
  return { ok: true, skill: verdict.skill, approval: verdict.approval, stored, signatureState: verdict.signatureState, chatOrigin: target.chatOrigin, private: priv };
}
