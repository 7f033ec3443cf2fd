// The shape of a hostile-publisher case. The catalogue (catalogue.ts) is plain data plus small
// builder functions, importable by the node runner (test/unit/hostile) and by a Chromium runner:
// it imports nothing that needs a browser or a fake IndexedDB.
import type { LoggedRequest } from '../support/server';
import type { FetchLike, KeyState, OriginReport, SkillStatus } from '../../lib/types';
import type { TrustStore } from '../../lib/store/store-api';

export type Category = 'size-time' | 'archive' | 'redirect-url' | 'content' | 'crypto-trust' | 'rendering' | 'messaging' | 'faults';

export const CATEGORIES: readonly Category[] = ['size-time', 'archive', 'redirect-url', 'content', 'crypto-trust', 'rendering', 'messaging', 'faults'];

// ---------------------------------------------------------------------------
// What the hostile server plays
// ---------------------------------------------------------------------------

/** What the server knows when it answers: how the client addresses it, and the stage. */
export interface ReplyContext {
  /** The origin the client used (the mapped public origin under node, the loopback origin in a browser). */
  origin: string;
  stage: number;
  path: string;
}

/** One answer of the hostile server. */
export type Reply =
  | {
      kind: 'bytes';
      body: string | Uint8Array;
      status?: number;
      contentType?: string | null;
      headers?: Record<string, string>;
      /** `declared` (default): a correct Content-Length; `omit`: chunked, no length. */
      length?: 'declared' | 'omit';
      /** Compress the body with gzip and say so in Content-Encoding. */
      encoding?: 'gzip';
    }
  /** A redirect; `location: null` sends none. */
  | { kind: 'redirect'; status?: 301 | 302 | 303 | 307 | 308; location: string | null }
  /** 200 and a body that never ends (chunks as fast as the client reads). */
  | { kind: 'endless'; contentType?: string; declaredLength?: number }
  /** 200, headers at once, then one byte every `intervalMs` (default 1000) forever. */
  | { kind: 'drip'; contentType?: string; intervalMs?: number; prefix?: string }
  /** The connection is accepted and nothing is ever sent. */
  | { kind: 'never' }
  /** 200 with a Content-Length, `body` sent, then the socket is destroyed mid-body. */
  | { kind: 'truncated'; body: string | Uint8Array; declaredLength: number; contentType?: string };

export type ReplySpec = Reply | ((ctx: ReplyContext) => Reply);

/** One stage of a site: path → answer. Paths are exact (`/llms.txt`); anything else is 404. */
export interface SiteStage {
  paths: Record<string, ReplySpec>;
  /**
   * Approve these skills (by the name the case keys skills with) after this stage's probe,
   * as the user would in the popup. Only approvable skills can be approved.
   */
  approveAfter?: string[];
}

/** A built site: one stage or several (earlier stages set up pins and approvals; the last one is judged). */
export interface HostileSite {
  stages: SiteStage[];
}

/** Requests under this prefix are traps: content points at them, and nothing may ever fetch them. */
export const TRAP_PREFIX = '/never/';

// ---------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------

/** A status, optionally with the report's statusCode: `invalid` or `invalid/url-blocked`. */
export type StatusExpectation = SkillStatus | `${SkillStatus}/${string}`;

export interface CheckContext {
  report: OriginReport;
  /** Every report, one per stage (the last one is `report`). */
  reports: OriginReport[];
  store: TrustStore;
  /** Requests the hostile server received (all stages). */
  log: LoggedRequest[];
  /** The origin the engine probed. */
  origin: string;
  /** Wall time of the judged probe. */
  elapsedMs: number;
}

export interface Expected {
  /** Default `done`. */
  state?: 'done' | 'error';
  /**
   * By skill key (the index name, else the llms.txt title, else the display name), or as a
   * multiset when names are not unique.
   */
  skillStatuses?: Record<string, StatusExpectation> | StatusExpectation[];
  /** By document kind: `outcome` or `outcome/reason` of that source (`too-large`, `absent/html`, `transient/timeout`). */
  sources?: Partial<Record<'llms-txt' | 'index' | 'legacy-index' | 'signing-key', string>>;
  /** Codes that must appear somewhere in the report (origin diagnostics, skill diagnostics, status codes). */
  diagnostics?: string[];
  keyState?: KeyState;
  /** Approval state by skill key. */
  approvals?: Record<string, 'none' | 'approved' | 'suspended'>;
  /** Number of skills in the report. */
  skillCount?: number;
  /** Extra checks: a problem description, or null when the case holds. */
  custom?: {
    text: string;
    check: (ctx: CheckContext) => string | null | Promise<string | null>;
  };
}

// ---------------------------------------------------------------------------
// The browser runner's part
// ---------------------------------------------------------------------------

export interface BrowserCheck {
  include: true;
  /** What the Chromium runner asserts, in words (shown in docs/reliability.md). */
  assert: string;
  /** The page to open on the case's origin (default `/`). The server plays it like any path. */
  page?: string;
  /** Statuses the popup must show (same keys as Expected.skillStatuses); default: the node expectation. */
  statuses?: Record<string, SkillStatus> | SkillStatus[];
  /** Toolbar badge after the probe. */
  badge?: 'none' | 'count' | 'warning';
  /** Beacon paths under TRAP_PREFIX that the payload tries to reach; none may be requested. */
  beacons?: string[];
  /** A global the payload sets when it runs (`window[sentinel]`); it must stay undefined in every extension page. */
  sentinel?: string;
  /** Text the rendered skill must show literally (markup shown as text, hidden text made visible, …). */
  visibleText?: string[];
  /** Extension state that must not change: approvals, pins. */
  unchanged?: ('approvals' | 'pins')[];
}

// ---------------------------------------------------------------------------
// Node-only scenarios (faults): they drive the engine themselves
// ---------------------------------------------------------------------------

export interface ScenarioEnv {
  /** A fresh trust store (its own IndexedDB), with the bystander pin and approval seeded. */
  newStore(): Promise<TrustStore>;
  /** A hostile server for a site. */
  serve(site: HostileSite): Promise<ServedSite>;
  /** A fetch that maps each public origin in `map` onto the given loopback server. */
  mappedFetch(map: Record<string, ServedSite>): FetchLike;
  /** A fake clock shared by the scenario. */
  clock: { now(): number; advance(ms: number): void };
  /** Checks the bystander pin and approval are intact in `store`; a problem or null. */
  bystanderIntact(store: TrustStore): Promise<string | null>;
  /** Approves a skill of `report` (by case key) as the popup would; a problem or null. */
  approve(store: TrustStore, report: OriginReport, key: string): Promise<string | null>;
}

export interface ScenarioResult {
  /** The observed outcome, in the same words as `expectedText`. */
  observed: string;
  /** Every report the scenario produced (the invariants are checked on each). */
  reports: OriginReport[];
  /** The stores the scenario used (the bystander check runs on each). */
  stores: TrustStore[];
  /** Problems found by the scenario itself (empty when the case holds). */
  problems: string[];
}

export interface Scenario {
  expectedText: string;
  run(env: ScenarioEnv): Promise<ScenarioResult>;
}

export interface ServedSite {
  /** The loopback origin (`http://127.0.0.1:port`). */
  origin: string;
  log: LoggedRequest[];
  /** Requests that hit TRAP_PREFIX. */
  trapHits(): LoggedRequest[];
  setStage(stage: number): void;
  stageCount: number;
  site: HostileSite;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------
// A case
// ---------------------------------------------------------------------------

export interface HostileCase {
  /** Stable kebab-case id. */
  id: string;
  category: Category;
  title: string;
  /**
   * The origin the node runner probes: `public` (default) maps https://hostile.example onto the
   * loopback server, so the public-origin URL rules apply; `loopback` probes http://127.0.0.1:port.
   */
  origin?: 'public' | 'loopback';
  /** Builds the site (lazily: some are large). Absent for scenarios. */
  site?: () => HostileSite | Promise<HostileSite>;
  /** Node-only cases that drive the engine themselves. */
  scenario?: Scenario;
  expected: Expected;
  /** The case needs real time (timeouts): the runner gives it this budget and runs it concurrently. */
  slowMs?: number;
  /** The main assertion is in the browser (rendering, messaging). */
  browserOnly?: boolean;
  browser?: BrowserCheck;
}

export const PUBLIC_ORIGIN = 'https://hostile.example';
/** A second public origin the fetch wrapper also maps (cross-origin redirects and artifacts). */
export const OTHER_ORIGIN = 'https://other.example';
