// The background's path to the desktop program (PRODUCT.md §6, §10; docs/desktop.md): every
// approved skill that may be used now, each taken from the hand-off gate (release() with the
// desktop target) and from nowhere else, as the skills lib/desktop/outbox.ts planMirror turns
// into the messages for the program. A skill the gate refuses is simply not among them, so the
// next sync removes it from the mirror and from every agent folder.
import type { MirrorableSkill } from '../desktop/outbox';
import type { Verification } from '../desktop/protocol/wire';
import type { DesktopStatus, HandOffKind } from '../messages';
import { NAME_MAX, display } from '../render/display';
import { t } from '../i18n';
import type { WorkerState } from './worker-state';
import { release, type Released } from './hand-off-gate';

/**
 * Where the background's own paths hand content (hand-off-gate.ts), beside messageTable()'s `handsOff`
 * and the menus' MENU_HAND_OFFS: the desktop mirror, to the program on the user's computer.
 */
export const DESKTOP_HAND_OFFS = { mirror: 'desktop' } as const satisfies Record<string, HandOffKind>;
export type BackgroundHandOff = keyof typeof DESKTOP_HAND_OFFS;

/** A usable skill that cannot be handed over as it is, and why (shown in the options page). */
export type NotMirrored = DesktopStatus['refused'][number];

const VERIFICATION: Record<Released['signatureState'], Verification> = { 'verified-signed': 'signed', verified: 'digest-only', unverified: 'unverified' };

/** The released bytes as the mirror takes them, or why they cannot be mirrored. */
export function mirrorableOf(origin: string, url: string, r: Released): { ok: true; skill: MirrorableSkill } | { ok: false; message: string } {
  const archive = r.stored.archive;
  // A record stored by an older version keeps only the archive's SKILL.md: the files would be missing.
  if (archive !== undefined && archive.files === undefined) return { ok: false, message: t('err_archive_files_not_stored') };
  const files = [{ path: 'SKILL.md', bytes: r.stored.bytes }, ...(archive?.files ?? []).map((f) => ({ path: f.path, bytes: f.bytes }))];
  const codes = new Set(r.skill.advisory.map((f) => f.code));
  const name = display(r.approval.name, NAME_MAX).trim();
  return {
    ok: true,
    skill: {
      origin,
      url,
      name: name === '' ? 'skill' : name,
      type: archive === undefined ? 'skill-md' : 'archive',
      files,
      digestLf: r.stored.digestLf,
      digestRaw: r.stored.digestRaw,
      archiveSha256: archive?.sha256 ?? null,
      keyFingerprint: r.approval.keyFingerprint,
      verification: VERIFICATION[r.signatureState],
      approvedAt: r.approval.approvedAt,
      grantsTools: codes.has('declares-tools') || codes.has('executable-tool'),
      hasScripts: false,
      // The gate let it out: whatever of it needs a confirmation (PRODUCT.md §6.1) was confirmed.
      confirmed: true,
    },
  };
}

/**
 * The skills the desktop mirror holds now: each approval the hand-off gate releases to the
 * desktop target. An approval it refuses (withdrawn, changed content or key, a policy or list
 * that excludes it, bytes that no longer hash, the feature off) is left out.
 */
export async function mirrorableSkills(worker: WorkerState): Promise<{ skills: MirrorableSkill[]; notMirrored: NotMirrored[] }> {
  const approvals = await (await worker.store()).listApprovals();
  const skills: MirrorableSkill[] = [];
  const notMirrored: NotMirrored[] = [];
  for (const a of approvals) {
    const r = await release(worker, { origin: a.origin, url: a.url, sender: null, target: { kind: 'desktop' } });
    if (!r.ok) {
      // Approved but not confirmed for what it can do on this computer: the options page says so.
      if (r.error === 'needs-confirmation') notMirrored.push({ origin: a.origin, url: a.url, message: r.message });
      continue;
    }
    const built = mirrorableOf(a.origin, a.url, r);
    if (built.ok) skills.push(built.skill);
    else notMirrored.push({ origin: a.origin, url: a.url, message: built.message });
  }
  return { skills, notMirrored };
}
