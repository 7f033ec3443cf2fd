// The trust records (pins, approvals) and the settings the messages, the store and the backup file share.
import type { SkillStatus } from './statuses';
import type { ApprovalReview } from './review';
import type { ArchiveBinding } from './verification';

// ---------------------------------------------------------------------------
// Trust (lib/store)
// ---------------------------------------------------------------------------

export interface Pin {
  origin: string;
  /** Base64 of the raw 32-byte ed25519 key. */
  key: string;
  fingerprint: string;
  firstSeen: number;
  lastSeen: number;
}

export interface Approval {
  origin: string;
  url: string;
  /** SHA-256 of the LF-normalized bytes (PRODUCT.md §9.2). */
  digestLf: string;
  /** SHA-256 of the raw bytes, recorded beside it. */
  digestRaw: string;
  /** Fingerprint of the pinned key at approval time; null when the origin did not sign. */
  keyFingerprint: string | null;
  /** The status the skill had when it was approved. */
  statusAtApproval: SkillStatus;
  name: string;
  approvedAt: number;
  /**
   * For an archive skill: the files the approval binds besides the root SKILL.md. Absent for a
   * SKILL.md skill, and on an archive approval stored by an older version, which bound the root
   * SKILL.md only: such an approval is suspended until the user approves again (PRODUCT.md §9.2).
   */
  archive?: ArchiveBinding;
  /**
   * What the approval showed of the review and what the user confirmed (PRODUCT.md §6.1). Absent on an
   * approval made by an older version or imported from a backup: nothing needing a confirmation is
   * handed on until the user confirms.
   */
  review?: ApprovalReview;
}

export interface ReviewerRegistry {
  [attester: string]: { public_key: string; registered_at: string };
}

export interface SnapshotKeyConfig {
  origin: string;
  skillId: string;
  publicKey: string;
  signature: string;
  keyId?: string;
  revisionPin?: string;
  versionPin?: string;
}

export interface Settings {
  paused: boolean;
  probeInPrivate: boolean;
  /** Origins (or `*.host` patterns) that are always probed even when `allowListOnly`. */
  allowList: string[];
  /** Origins (or `*.host` patterns) never probed. */
  denyList: string[];
  /** Probe only allow-listed origins. */
  allowListOnly: boolean;
  legacyIndex: boolean;
  /**
   * Hand skills on with the short header: the origin and the key fingerprint only, not the URL,
   * digests, signature state and note (lib/skill-context/block.ts). Off by default.
   */
  shortHeader: boolean;
  reviewers: ReviewerRegistry;
  snapshotKeys: SnapshotKeyConfig[];
  /**
   * Exact http(s) origins (`scheme://host[:port]`, no path) the user treats as chat sites
   * besides the built-in adapters: the popup offers "Insert into chat" for their tabs and
   * the context menu's "Insert skill context" appears on them.
   */
  chatSites: string[];
  /**
   * Hand the approved skills that may be used now to Skillpin's desktop program (docs/desktop.md).
   * Off by default; it works only while the browser grants the optional nativeMessaging permission.
   */
  desktopMirror: boolean;
  /**
   * The desktop agents the user picked (none by default); the skill folders written are the fewest
   * that reach them (lib/desktop/protocol/agents.ts planFolders). Settings from before held folder ids.
   */
  desktopAgents: DesktopAgentId[];
  /**
   * For a skill that grants tools or carries scripts: the agent folders the user confirmed it for,
   * each bound to the skill's mirror revision (its content and approval), so a change asks again.
   */
  desktopConfirmed: DesktopConfirmation[];
}

/**
 * An agent whose skill folder the desktop program may write: one key of AGENT_FOLDERS in
 * lib/desktop/protocol/limits.ts (whose `satisfies` keeps the two equal).
 */
export type AgentId = 'claude-code' | 'agents' | 'gemini-cli';
/** The same: the protocol's name for a skill folder the desktop program writes. */
export type FolderId = AgentId;

/** A desktop agent the options page offers (lib/desktop/protocol/agents.ts DESKTOP_AGENTS). */
export type DesktopAgentId = 'claude-code' | 'codex' | 'gemini-cli' | 'copilot' | 'opencode' | 'cursor';

/** The user confirmed that this revision of this skill may be written to this agent's folder. */
export interface DesktopConfirmation {
  origin: string;
  url: string;
  agent: AgentId;
  /** The skill's mirror revision (lib/desktop/protocol/revision.ts), 64 hex digits. */
  revision: string;
}

export const DEFAULT_SETTINGS: Settings = {
  paused: false,
  probeInPrivate: false,
  allowList: [],
  denyList: [],
  allowListOnly: false,
  legacyIndex: true,
  shortHeader: false,
  reviewers: {},
  snapshotKeys: [],
  chatSites: [],
  desktopMirror: false,
  desktopAgents: [],
  desktopConfirmed: [],
};
