// The background keeps the desktop mirror (docs/desktop.md): after every change of trust state,
// settings or policy, and after every probe of a site with approved skills, it asks the hand-off
// gate which approved skills may be used now (desktop-mirror.ts), plans the messages
// (lib/desktop/outbox.ts) and runs the connection manager (lib/desktop/link.ts) over the
// browser's native messaging. A skill that may no longer be used is left out of the next sync,
// which removes it from the mirror and every agent folder at once.
//
// Nothing is sent while the feature is off, with one exception: turning it off while the mirror
// holds skills sends one sync naming nothing, so no copy outlives the user's choice. While the
// organisation's policy is not known the gate releases nothing (PRODUCT.md §10, the policy fails
// closed): the mirror is emptied until the policy is read, then filled again.
import { DesktopLink, type LinkState } from '../desktop/link';
import { AGENT_FOLDERS, type AgentId } from '../desktop/protocol/limits';
import { foldersHolding } from '../desktop/protocol/agents';
import { planMirror } from '../desktop/outbox';
import type { DesktopSkillStatus, DesktopState, DesktopStatus } from '../messages';
import type { Clock } from '../types';
import type { DesktopCause, DesktopSync, WorkerState } from './worker-state';
import type { BackgroundPlatform, NativePlatform } from './deps';
import { mirrorableSkills, type NotMirrored } from './desktop-mirror';
import { desktopProfileId } from './desktop-profile';
import { choicesOf, describePlan, outcomeKey, updateOf, withOutcomes } from './desktop-status';

/** storage.local: the mirror may hold skills of this browser (a sync naming some was sent). */
export const DESKTOP_HELD_KEY = 'skillpin:desktop-held';
/** storage.session: the agent folders holding each skill, as the program's last answer said (a withdrawal names them). */
export const DESKTOP_COPIES_KEY = 'skillpin:desktop-copies';

/** What the mirror is doing when the link is not the one to say. */
type Phase = 'off' | 'no-permission' | 'restart-needed' | 'unavailable' | 'link';

export class DesktopSyncer implements DesktopSync {
  private readonly native: NativePlatform | undefined;
  private readonly link: DesktopLink | null;
  private phase: Phase;
  private skills: DesktopSkillStatus[] = [];
  private notMirrored: NotMirrored[] = [];
  /** The skills as the program's last answer said it holds them (empty until it answered). */
  private heldSkills: DesktopSkillStatus[] = [];
  private lastSignature: string | null = null;
  private syncedAt: number | null = null;
  /** When the browser or the program last answered an attempt to reach the program. */
  private checkedAt: number | null = null;
  /** The run under way is the one sync naming nothing after the feature was turned off. */
  private clearing = false;
  /** The last plan was made while the organisation's policy was not known (so it named nothing). */
  private policyPending = false;
  private queue: Promise<void> = Promise.resolve();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly platform: BackgroundPlatform,
    private readonly clock: Clock,
    private readonly context: () => WorkerState,
  ) {
    const native = platform.native;
    this.native = native;
    this.phase = native ? 'off' : 'unavailable';
    this.link = native
      ? new DesktopLink({
          connectNative: (name) => native.connectNative(name),
          disconnectReason: (port) => native.disconnectReason(port),
          timers: native.timers,
          onState: (state) => void this.linkChanged(state),
          profile: () => desktopProfileId(platform),
        })
      : null;
    // A page of ours came to carry the native port, or went (entrypoints/background/native.ts).
    native?.onAvailable?.(() => this.changed({ force: true }));
  }

  changed(cause: DesktopCause = {}): void {
    this.queue = this.queue.then(() => this.evaluate(cause)).catch(() => undefined);
  }

  async settled(): Promise<void> {
    await this.queue;
    if (this.link?.state.kind !== 'working') return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async status(): Promise<DesktopStatus> {
    const settings = await this.context().settings.effective();
    const permission = this.native ? await this.native.granted().catch(() => false) : false;
    const ls: LinkState = this.link?.state ?? { kind: 'off' };
    const state: DesktopState = this.phase !== 'link' ? this.phase : this.policyPending && ls.kind === 'in-sync' ? 'waiting' : ls.kind;
    const message = this.phase === 'link' && (ls.kind === 'host-absent' || ls.kind === 'forbidden' || ls.kind === 'retrying' || ls.kind === 'outdated') ? ls.message : null;
    return {
      enabled: settings.desktopMirror,
      permission,
      state,
      message,
      hostVersion: ls.kind === 'in-sync' || ls.kind === 'outdated' ? ls.version : null,
      installCommand: this.native?.installCommand ?? '',
      update: this.phase === 'link' && ls.kind === 'outdated' ? updateOf(this.native?.installCommand ?? '') : null,
      folders: ls.kind === 'in-sync' ? ls.folders : [],
      found: ls.kind === 'in-sync' ? ls.found : null,
      skills: state === 'in-sync' || state === 'working' || state === 'waiting' ? this.heldSkills : [],
      refused: this.notMirrored,
      syncedAt: this.syncedAt,
      checkedAt: this.checkedAt,
      manifestPlaces: (await this.native?.manifestPlaces?.().catch(() => [])) ?? [],
    };
  }

  async check(): Promise<{ status: DesktopStatus }> {
    this.changed({ force: true });
    await this.settled();
    if (this.phase !== 'link') this.checkedAt = this.clock.now();
    return { status: await this.status() };
  }

  private async linkChanged(state: LinkState): Promise<void> {
    if (state.kind !== 'working' && state.kind !== 'off') this.checkedAt = this.clock.now();
    if (state.kind === 'in-sync') {
      this.syncedAt = this.clock.now();
      const outcomes = new Map(state.summary.agents.map((o) => [outcomeKey(o), o]));
      const refused = new Set(state.summary.refused.map((r) => `${r.ref.origin} ${r.ref.url}`));
      this.heldSkills = withOutcomes(this.skills, outcomes).filter((s) => !refused.has(`${s.origin} ${s.url}`));
      await this.keepCopies();
      if (state.summary.held === 0) await this.platform.setLocal(DESKTOP_HELD_KEY, false).catch(() => undefined);
      if (this.clearing) this.halt('off');
    }
    if (state.kind !== 'working') this.wake();
  }

  private wake(): void {
    if (this.link?.state.kind === 'working') return;
    const list = this.waiters;
    this.waiters = [];
    for (const w of list) w();
  }

  /** Stops the link: nothing more is sent (the mirror on disk stays as the last sync left it). */
  private halt(next: Phase): void {
    this.link?.stop();
    this.clearing = false;
    this.lastSignature = null;
    this.phase = next;
    this.skills = [];
    this.heldSkills = [];
    this.notMirrored = [];
    this.wake();
  }

  /** The folders holding each skill, kept where a background started later finds them. */
  private async keepCopies(): Promise<void> {
    const copies = Object.fromEntries(this.heldSkills.map((s) => [`${s.origin} ${s.url}`, foldersHolding(s.agents)]));
    await this.platform.setSession?.(DESKTOP_COPIES_KEY, copies).catch(() => undefined);
  }

  async copiesOf(origin: string, url: string): Promise<AgentId[] | null> {
    const kept = await Promise.resolve(this.platform.getSession?.(DESKTOP_COPIES_KEY)).catch(() => undefined);
    const copies = typeof kept === 'object' && kept !== null ? (kept as Record<string, unknown>)[`${origin} ${url}`] : undefined;
    return Array.isArray(copies) ? copies.filter((a): a is AgentId => typeof a === 'string' && a in AGENT_FOLDERS) : null;
  }

  /** A sync naming skills was sent and no sync naming none confirmed since (never: nothing to clear). */
  private async held(): Promise<boolean> {
    return (await this.platform.getLocal(DESKTOP_HELD_KEY).catch(() => false)) === true;
  }

  private async evaluate(cause: DesktopCause): Promise<void> {
    const { native, link } = this;
    if (!native || !link) return;
    const worker = this.context();
    const settings = await worker.settings.effective();
    if (!(await native.granted().catch(() => false))) return this.halt(settings.desktopMirror ? 'no-permission' : 'off');
    if (!native.available()) return this.halt(settings.desktopMirror || (await this.held()) ? 'restart-needed' : 'off');
    if (!settings.desktopMirror) return this.clear(cause);
    this.clearing = false;
    if (cause.origin !== undefined && !(await (await worker.store()).listApprovals()).some((a) => a.origin === cause.origin)) return;
    // Not a rule of its own: the gate refuses every skill then. Noted for the options page.
    this.policyPending = (await worker.policy()) === null;
    const found = await mirrorableSkills(worker);
    const plan = await planMirror(found.skills, choicesOf(settings));
    const signature = JSON.stringify(plan.sync.skills);
    if (!cause.force && signature === this.lastSignature && this.phase === 'link') return;
    this.lastSignature = signature;
    this.skills = describePlan(plan, found.skills, settings);
    this.notMirrored = [...found.notMirrored, ...plan.refused.map((r) => ({ ...r.ref, message: r.message }))];
    if (plan.skills.size > 0) await this.platform.setLocal(DESKTOP_HELD_KEY, true);
    this.phase = 'link';
    link.mirror(async () => plan);
  }

  /** The feature is off: one sync naming nothing when the mirror may hold skills (again on a forced change when the program could not be reached). */
  private async clear(cause: DesktopCause): Promise<void> {
    if (!(await this.held())) return this.halt('off');
    if (this.clearing && !cause.force) return;
    this.clearing = true;
    this.lastSignature = null;
    this.skills = [];
    this.notMirrored = [];
    this.phase = 'link';
    this.link?.mirror(() => planMirror([], { agents: [], confirmed: () => false }));
  }
}
