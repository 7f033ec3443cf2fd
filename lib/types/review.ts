// What a skill can do (PRODUCT.md §6.1): the review of every file of a skill, part of the report
// contract (docs/report.md "review"). Verification proves who published the bytes; the review says,
// in plain words, what those bytes can make an agent or the user's computer do. lib/review/ makes it.

/**
 * How much a finding can do without anyone deciding:
 * - `acts`: runs on its own, without the agent deciding (load-time command expansion, frontmatter
 *   hooks, files tools run by themselves, install scripts, tool metadata such as `.git/config`);
 * - `can-act`: code or commands the agent may be told to run, or grants that let it run them;
 * - `look`: worth a look (hidden text, concealment, a broad trigger).
 */
export type FindingSeverity = 'acts' | 'can-act' | 'look';

/** Severities from most to least serious: findings are listed in this order. */
export const SEVERITY_ORDER: readonly FindingSeverity[] = ['acts', 'can-act', 'look'];

/**
 * Every kind of finding, with its words in the catalogue (lib/i18n/finding.ts, where a type check
 * keeps each one a message key): the sentence that says what a skill with such a finding can do.
 */
export const FINDING_KINDS = {
  /** `` !`command` `` expansion: runs as soon as the skill is loaded. */
  'load-command': 'finding_load_command',
  /** Frontmatter `hooks`: the harness runs them on tool use. */
  hooks: 'finding_hooks',
  /** Frontmatter that grants tools or connects servers (`allowed-tools`, `mcp-servers`, …). */
  'tool-grant': 'finding_tool_grant',
  /** A SKILL.md that starts a frontmatter block Skillpin cannot read: taken as granting tools (fail closed). */
  'unreadable-frontmatter': 'finding_unreadable_frontmatter',
  /** A script or executable, by content (shebang, ELF / Mach-O / PE) or by name. */
  executable: 'finding_executable',
  /** A package manifest with lifecycle scripts (npm `postinstall`…, `setup.py`, build hooks). */
  'install-script': 'finding_install_script',
  /** A file tools run by themselves (`conftest.py`, `.envrc`, `Makefile`, editor tasks, git hooks). */
  'auto-run-file': 'finding_auto_run_file',
  /** Version-control or tool metadata (`.git`, `.hg`, `.svn`, `.jj`): never written to an agent folder. */
  'tool-metadata': 'finding_tool_metadata',
  /** Another dot-file or dot-folder (`.vscode/`, `.npmrc`, `.github/`…): tools may read and act on it. */
  'dot-file': 'finding_dot_file',
  /** A file that is not plainly inert (source code, unknown binary): something may run it. */
  'code-file': 'finding_code_file',
  /** A download piped or handed to a shell or interpreter. */
  'remote-code': 'finding_remote_code',
  /** Writes to agent memory or configuration, shell start-up files, crontab, authorized_keys. */
  persistence: 'finding_persistence',
  /** Reads of private keys, `~/.ssh`, `.env`, cloud credentials, browser profiles. */
  secrets: 'finding_secrets',
  /** Uploads or requests that carry file contents or the environment out. */
  'sends-data': 'finding_sends_data',
  /** `sudo`, set-uid bits, shutdown / reboot. */
  privilege: 'finding_privilege',
  /** Invisible or bidirectional characters, HTML comments, markdown that hides text, in any text file. */
  'hidden-text': 'finding_hidden_text',
  /** Text hidden in an image: PNG text chunks, JPEG comments and metadata, SVG text and scripts. */
  'hidden-in-image': 'finding_hidden_in_image',
  /** A markdown image or link whose address carries the conversation (or asks the agent to fill it in). */
  'chat-exfiltration': 'finding_chat_exfiltration',
  /** Tells the agent to use the user's connected apps (mail, files, code hosts, calendars). */
  'connected-apps': 'finding_connected_apps',
  /** Tells the agent to write the assistant's memory. */
  'assistant-memory': 'finding_assistant_memory',
  /** Concealment: "do not mention this skill", "ignore earlier instructions". */
  concealment: 'finding_concealment',
  /** A description written to make the skill trigger on every task. */
  'broad-trigger': 'finding_broad_trigger',
} as const;

export type FindingKind = keyof typeof FINDING_KINDS;

export interface Finding {
  kind: FindingKind;
  severity: FindingSeverity;
  /** The file's path inside the skill (`SKILL.md` for the root). */
  file: string;
  /** 1-based line of the match; null when the finding is about the whole file. */
  line: number | null;
  /** The matched text, control and hidden characters escaped, shortened to MATCH_MAX characters. */
  match: string;
  /** One plain English sentence (the pages word each kind in the user's language). */
  message: string;
}

export interface SkillReview {
  /** The rule set that judged the files (REVIEW_RULES in lib/review/): an approval records it. */
  rules: string;
  /** Ordered by severity (SEVERITY_ORDER), then file, then line. */
  findings: Finding[];
  /** Files reviewed (SKILL.md and every file of an archive). */
  files: number;
  /** True when a bound was reached (findings per skill, bytes per file): more may be there than listed. */
  truncated: boolean;
}

/**
 * What an approval recorded of the review (PRODUCT.md §6.1): the rule set, the findings it was shown
 * (their keys, findingKey in lib/review/), and the ones the user confirmed.
 */
export interface ApprovalReview {
  rules: string;
  /** Keys of every finding the approval showed. */
  shown: string[];
  /** Keys of the findings that need a confirmation (acts, can-act) the user confirmed. */
  confirmed: string[];
  /** When the confirmation was given (ms since epoch); null when none was needed. */
  confirmedAt: number | null;
}
