// The numbers of the desktop mirror protocol (docs/desktop.md), shared by the extension and the
// host program: what a native message may weigh each way, what one skill may hold, and the names
// the browsers and agents know the host by.
import type { AgentId } from '../../types';

export type { AgentId };

/** The native-messaging host name (lowercase letters, digits, dots and underscores, as both browsers require). */
export const NATIVE_HOST_NAME = 'dev.skillpin.mirror';

/** The Firefox add-on id (wxt.config.ts `browser_specific_settings.gecko.id`; a unit test keeps them equal). */
export const FIREFOX_EXTENSION_ID = 'skillpin@skillpin.dev';

/**
 * The oldest host program the extension syncs with: the version of the host's last security fix
 * (host/version.ts). An older program is refused with the command that updates it.
 */
export const MIN_HOST_VERSION = '1.1.0';

/**
 * The version of the desktop program built from this tree (host/version.ts re-exports it): the
 * package the options page tells the user to run (`npx skillpin@<this> install-host`).
 */
export const HOST_PACKAGE_VERSION = '1.2.0';

/** Version of the message set below; both sides refuse another. */
export const PROTOCOL_VERSION = 1;

/** Largest message the host sends the browser: the limit both browsers apply (1 MB). */
export const MAX_MESSAGE_TO_BROWSER = 1024 * 1024;

/**
 * Largest message the host accepts. Chrome lets an extension send 64 MiB; the mirror sends one
 * skill per message, at most 16 MiB of files, which base64 makes 21.4 MiB, plus 512 file entries
 * of at most 1,024-character paths: 24 MiB holds the largest skill with room and stays far below.
 */
export const MAX_MESSAGE_TO_HOST = 24 * 1024 * 1024;

/** Files in one skill, SKILL.md included (the Skills extension's limit, and the archive cap). */
export const MAX_FILES_PER_SKILL = 512;

/** Sum of the file sizes of one skill (16 MiB, the Skills extension's limit). */
export const MAX_BYTES_PER_SKILL = 16 * 1024 * 1024;

/** Longest file path inside a skill, in characters, and longest segment. */
export const MAX_PATH_LENGTH = 1024;
export const MAX_SEGMENT_LENGTH = 255;

/** Most skills one sync may name. */
export const MAX_SKILLS_IN_SYNC = 4096;

/** Longest origin, URL, name or fingerprint string accepted in a message. */
export const MAX_STRING_LENGTH = 4096;

/** The file each agent-folder copy carries beside the skill's own files (never a skill file). */
export const PROVENANCE_FILE = '.skillpin.json';

/** Agents whose skill folders the host may write, by id: the folder under the user's home. */
export const AGENT_FOLDERS = {
  'claude-code': '.claude/skills',
  agents: '.agents/skills',
  'gemini-cli': '.gemini/skills',
} as const satisfies Record<AgentId, string>;

export const AGENT_IDS = Object.keys(AGENT_FOLDERS) as AgentId[];

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && Object.hasOwn(AGENT_FOLDERS, value);
}

/** Compares dotted version numbers (`1.10.0` > `1.9.2`); a part that is not a number counts as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
