// The extension's connection to the host program (docs/desktop.md), with the browser's
// connectNative and the timers injected. One run at a time brings the host's mirror to the
// latest plan: hello, sync, then a put for each skill the host lacks. A run that loses the host
// halfway is tried again after a growing pause; a host that is not installed (or not allowed)
// is a state the options page shows, not retried until the next change or an explicit retry.
import { compareVersions, MAX_MESSAGE_TO_BROWSER, MIN_HOST_VERSION, NATIVE_HOST_NAME, PROTOCOL_VERSION } from './protocol/limits';
import type { DesktopAgentId } from './protocol/agents';
import { type MirrorPlan, putMessage } from './outbox';
import { type AgentOutcome, type HostReply, parseHostReply, type SkillRef } from './protocol/wire';

/** The part of a runtime.Port the link uses. */
export interface NativePort {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: (port: NativePort) => void): void };
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface LinkDeps {
  connectNative(name: string): NativePort;
  /** Why the port closed, as the browser says (Chrome: runtime.lastError, Firefox: port.error); null when it gave no reason. */
  disconnectReason(port: NativePort): string | null;
  timers: Timers;
  onState?(state: LinkState): void;
  /**
   * This browser profile's id (lib/background/desktop-profile.ts), sent in every message so the
   * program keeps each profile's skills apart. Absent: messages carry none.
   */
  profile?(): Promise<string>;
}

/** An agent folder as the host's greeting names it (present: the agent's own folder exists). */
export type HostFolder = Extract<HostReply, { type: 'hello' }>['agents'][number];

export interface MirrorSummary {
  held: number;
  stored: SkillRef[];
  removed: SkillRef[];
  agents: AgentOutcome[];
  refused: { ref: SkillRef; message: string }[];
}

export type LinkState =
  | { kind: 'off' }
  | { kind: 'working' }
  /** `folders`: the agent folders as the host's greeting named them (present: the agent's own folder exists). */
  | { kind: 'in-sync'; version: string; summary: MirrorSummary; folders: HostFolder[]; found: DesktopAgentId[] | null }
  | { kind: 'host-absent'; message: string }
  | { kind: 'forbidden'; message: string }
  /** The program is older than MIN_HOST_VERSION: nothing is sent to it until it is updated. */
  | { kind: 'outdated'; version: string; message: string }
  | { kind: 'retrying'; attempt: number; inMs: number; message: string };

/** How long one reply may take; a put of a large skill is written to disk before it is answered. */
export const REPLY_TIMEOUT_MS = 120_000;
/** The connection closes after this long without a run, so the background can sleep. */
export const IDLE_CLOSE_MS = 30_000;
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 5 * 60_000;

const ABSENT = /not found|no such native application|not registered|does not exist/i;
const FORBIDDEN = /forbidden|not allowed|access .*denied/i;

class HostGone extends Error {}

/** A refusal that is a state, not a lost connection: not retried until the next change. */
class LinkRefusal extends Error {
  constructor(readonly state: { kind: 'host-absent' | 'forbidden'; message: string } | { kind: 'outdated'; version: string; message: string }) {
    super(state.message);
  }
}

/** Maps a browser's disconnect reason to the state it means. */
export function classifyDisconnect(reason: string | null): 'host-absent' | 'forbidden' | 'lost' {
  if (reason !== null && ABSENT.test(reason)) return 'host-absent';
  if (reason !== null && FORBIDDEN.test(reason)) return 'forbidden';
  return 'lost';
}

export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempt - 1));
}

export class DesktopLink {
  private port: NativePort | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: HostReply) => void; reject: (e: Error) => void; timer: unknown }>();
  private plan: (() => Promise<MirrorPlan>) | null = null;
  private running = false;
  private again = false;
  private attempt = 0;
  private retryTimer: unknown = null;
  private idleTimer: unknown = null;
  private hostVersion: string | null = null;
  private profileId: string | null = null;
  private hostFolders: HostFolder[] = [];
  /** The agents the program found in the home (null: a program before 1.2.0 does not say). */
  private hostFound: DesktopAgentId[] | null = null;
  state: LinkState = { kind: 'off' };

  constructor(private readonly deps: LinkDeps) {}

  /** Brings the mirror to what `plan` returns now, and again whenever this is called after a change. */
  mirror(plan: () => Promise<MirrorPlan>): void {
    this.plan = plan;
    this.attempt = 0;
    this.clearRetry();
    void this.kick();
  }

  /** Stops: no more runs, the connection closed, the state `off`. The mirror on disk is left as it is. */
  stop(): void {
    if (this.state.kind === 'off' && this.plan === null) return;
    this.plan = null;
    this.clearRetry();
    this.close(new HostGone('The connection was closed.'));
    this.setState({ kind: 'off' });
  }

  private setState(state: LinkState): void {
    this.state = state;
    this.deps.onState?.(state);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.deps.timers.clear(this.retryTimer);
    this.retryTimer = null;
  }

  private async kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        const plan = this.plan;
        if (plan === null) return;
        await this.runOnce(plan);
      } while (this.again && this.plan !== null);
    } finally {
      this.running = false;
    }
  }

  private async runOnce(plan: () => Promise<MirrorPlan>): Promise<void> {
    this.setState({ kind: 'working' });
    if (this.idleTimer !== null) this.deps.timers.clear(this.idleTimer);
    this.idleTimer = null;
    try {
      const summary = await this.exchange(await plan());
      this.attempt = 0;
      this.setState({ kind: 'in-sync', version: this.hostVersion ?? '', summary, folders: this.hostFolders, found: this.hostFound });
      this.idleTimer = this.deps.timers.set(() => this.close(new HostGone('idle')), IDLE_CLOSE_MS);
    } catch (error) {
      if (error instanceof LinkRefusal) {
        this.close(new HostGone(error.message));
        this.setState(error.state);
        return;
      }
      this.failed(error instanceof Error ? error.message : String(error));
    }
  }

  private failed(message: string): void {
    const kind = classifyDisconnect(message);
    this.close(new HostGone(message));
    if (kind !== 'lost') {
      this.setState({ kind, message });
      return;
    }
    this.attempt += 1;
    const inMs = retryDelay(this.attempt);
    this.setState({ kind: 'retrying', attempt: this.attempt, inMs, message });
    this.clearRetry();
    this.retryTimer = this.deps.timers.set(() => {
      this.retryTimer = null;
      void this.kick();
    }, inMs);
  }

  private async exchange(plan: MirrorPlan): Promise<MirrorSummary> {
    if (this.port === null) {
      this.profileId = this.deps.profile ? await this.deps.profile() : null;
      this.open();
      const hello = await this.request({ type: 'hello', protocol: PROTOCOL_VERSION });
      if (hello.type !== 'hello') throw new Error('The host did not answer the greeting.');
      if (compareVersions(hello.version, MIN_HOST_VERSION) < 0) {
        throw new LinkRefusal({
          kind: 'outdated',
          version: hello.version,
          message: `The desktop program is version ${hello.version}; Skillpin needs ${MIN_HOST_VERSION} or later (it has the latest security fixes). Nothing was sent to it.`,
        });
      }
      this.hostVersion = hello.version;
      this.hostFolders = hello.agents.map((a) => ({ agent: a.agent, folder: a.folder, present: a.present }));
      this.hostFound = hello.found ?? null;
    }
    const synced = await this.request(plan.sync);
    if (synced.type !== 'synced') throw new Error('The host did not answer the sync.');
    const summary: MirrorSummary = { held: 0, stored: [], removed: synced.removed, agents: [...synced.agents], refused: [...plan.refused] };
    for (const ref of synced.missing) {
      const skill = [...plan.skills.values()].find((s) => s.ref.origin === ref.origin && s.ref.url === ref.url);
      if (skill === undefined) continue;
      const built = putMessage(skill, this.nextId++);
      if (!built.ok) {
        summary.refused.push({ ref, message: built.message });
        continue;
      }
      const stored = await this.send(built.message);
      if (stored.type === 'stored') {
        summary.stored.push(stored.skill);
        summary.agents.push(...stored.agents);
      } else {
        summary.refused.push({ ref, message: stored.type === 'error' ? stored.message : 'The host did not store the skill.' });
      }
    }
    // Held: every planned skill but those refused here (the list began with the plan's own refusals).
    summary.held = plan.skills.size - (summary.refused.length - plan.refused.length);
    return summary;
  }

  private open(): void {
    const port = this.deps.connectNative(NATIVE_HOST_NAME);
    this.port = port;
    port.onMessage.addListener((message) => this.received(message));
    port.onDisconnect.addListener((p) => {
      if (this.port !== port) return;
      this.port = null;
      this.rejectAll(new HostGone(this.deps.disconnectReason(p) ?? 'The host program closed the connection.'));
    });
  }

  private close(reason: Error): void {
    const port = this.port;
    this.port = null;
    if (this.idleTimer !== null) this.deps.timers.clear(this.idleTimer);
    this.idleTimer = null;
    this.rejectAll(reason);
    if (port !== null) {
      try {
        port.disconnect();
      } catch {
        // Already closed by the browser.
      }
    }
  }

  private rejectAll(reason: Error): void {
    for (const [, p] of this.pending) {
      this.deps.timers.clear(p.timer);
      p.reject(reason);
    }
    this.pending.clear();
  }

  private received(message: unknown): void {
    const reply = JSON.stringify(message ?? null).length <= MAX_MESSAGE_TO_BROWSER ? parseHostReply(message) : null;
    if (reply === null) return;
    if (reply.id === null) {
      // An answer to a message the host could not even read: nothing waits for it by id.
      const first = [...this.pending.keys()][0];
      if (first !== undefined && reply.type === 'error') this.settle(first, reply);
      return;
    }
    this.settle(reply.id, reply);
  }

  private settle(id: number, reply: HostReply): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    this.pending.delete(id);
    this.deps.timers.clear(p.timer);
    if (reply.type === 'error' && (reply.code === 'caller-not-allowed' || reply.code === 'unsupported-protocol')) p.reject(new Error(`forbidden: ${reply.message}`));
    else if (reply.type === 'error' && reply.code === 'not-installed') p.reject(new LinkRefusal({ kind: 'host-absent', message: reply.message }));
    else p.resolve(reply);
  }

  private request(message: Record<string, unknown>): Promise<HostReply> {
    return this.send({ ...message, id: this.nextId++ });
  }

  private send(message: Record<string, unknown>): Promise<HostReply> {
    const port = this.port;
    if (port === null) return Promise.reject(new HostGone('The host program closed the connection.'));
    const id = message.id as number;
    if (this.profileId !== null) message = { ...message, profile: this.profileId };
    return new Promise<HostReply>((resolve, reject) => {
      const timer = this.deps.timers.set(() => {
        this.pending.delete(id);
        reject(new Error('The host program did not answer in time.'));
      }, REPLY_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      try {
        port.postMessage(message);
      } catch (error) {
        this.pending.delete(id);
        this.deps.timers.clear(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}
