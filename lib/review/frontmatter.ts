// What runs when a skill is loaded (PRODUCT.md §6.1), read from SKILL.md: frontmatter that grants
// tools, connects servers or declares hooks; a frontmatter block that cannot be read, taken as
// granting tools (fail closed); `` !`command` `` expansions; a description written to trigger on
// every task.
import { parseFrontmatterText, UNREADABLE } from '../parse/skill-md';
import type { Findings } from './findings';

/** Frontmatter keys (compared in NFKC lower case without punctuation or spaces) that reach beyond text. */
const REACH = new Map<string, 'tool-grant' | 'hooks'>([
  ...'allowedtools allowedtool tools tool mcp mcpservers mcpserver servers server permissions'.split(' ').map((k) => [k, 'tool-grant'] as const),
  ['hooks', 'hooks'],
  ['hook', 'hooks'],
]);

/** What a top-level frontmatter key grants: a tool grant, hooks, or nothing. */
export function reachOf(key: string): 'tool-grant' | 'hooks' | null {
  const form = key
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return REACH.get(form) ?? null;
}

/** Why in words, for each diagnostic of lib/parse/skill-md.ts that means the block was there but could not be read (UNREADABLE there). */
const WHY: Record<string, string> = {
  'frontmatter-too-large': 'it is larger than the 16 KiB Skillpin reads',
  'frontmatter-unterminated': 'it has no closing "---" line',
  'frontmatter-yaml-error': 'it is not valid YAML',
  'frontmatter-duplicate-key': 'a key appears twice, and readers disagree on which one counts',
  'frontmatter-alias-limit': 'it expands too many YAML aliases',
  'frontmatter-not-mapping': 'it is not a list of keys and values',
};

/** A key another YAML reader may expand into more keys or read otherwise: a merge key, a collection or multi-line key. */
function ambiguousKey(key: string): boolean {
  return key === '<<' || key.startsWith('[') || key.startsWith('{') || key.includes('\n') || key.startsWith('? ');
}

/** True when the frontmatter block (lines after the first `---` up to the next) holds only blank lines and comments. */
function emptyBlock(lines: readonly string[]): boolean {
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '---') return true;
    const t = line.trim();
    if (t !== '' && !t.startsWith('#')) return false;
  }
  return false;
}

/** The 1-based line of the block where `key` first appears, else 1. */
function keyLine(lines: readonly string[], key: string): number {
  const probe = key.split('\n')[0] ?? key;
  for (let i = 1; i < lines.length && i < 2000; i++) {
    if (lines[i] === '---') break;
    if ((lines[i] as string).includes(probe)) return i + 1;
  }
  return 1;
}

function unreadable(out: Findings, line: number, match: string, why: string): void {
  out.add('unreadable-frontmatter', 'can-act', 'SKILL.md', line, match, `The frontmatter cannot be read (${why}), so it is taken as granting tools.`);
}

/** The frontmatter's grants and hooks, or that it cannot be read. */
export function frontmatterFindings(text: string, lines: readonly string[], out: Findings): void {
  const first = lines[0] ?? '';
  // Line ends as every YAML reader takes them: a lone CR is a line break for some readers and not for others.
  const fm = parseFrontmatterText(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);
  const broken = fm.diagnostics.find((d) => UNREADABLE.has(d.code));
  if (first !== '---') {
    // A block other readers may still take as frontmatter (spaces around the dashes, blank lines before).
    const firstText = lines.find((l) => l.trim() !== '') ?? '';
    if (firstText.trim() === '---' || /^---[ \t]/.test(first)) unreadable(out, 1, firstText, 'its opening "---" line is not exactly "---"');
    return;
  }
  if (broken !== undefined) {
    if (broken.code === 'frontmatter-not-mapping' && emptyBlock(lines)) return;
    unreadable(out, 1, broken.code, WHY[broken.code] ?? 'it is not valid YAML');
    return;
  }
  const data = fm.data ?? {};
  for (const key of Object.keys(data)) {
    if (ambiguousKey(key)) {
      unreadable(out, keyLine(lines, key), key, `the key ${JSON.stringify(key.slice(0, 40))} may be read as other keys`);
      continue;
    }
    const reach = reachOf(key);
    if (reach === 'hooks') out.add('hooks', 'acts', 'SKILL.md', keyLine(lines, key), key, 'The frontmatter declares hooks, which the agent harness runs by itself on tool use.');
    else if (reach === 'tool-grant') out.add('tool-grant', 'can-act', 'SKILL.md', keyLine(lines, key), key, `The frontmatter grants the agent tools or servers (${key}).`);
  }
  const broad = broadTrigger(fm.description ?? '');
  if (broad !== null) out.add('broad-trigger', 'look', 'SKILL.md', keyLine(lines, 'description'), broad, 'The description is written to make the skill trigger on every task, not only its own.');
}

// A description written to make a skill trigger on every task (arXiv 2605.11418: descriptions
// tuned to win selection): phrases, one bounded pattern each.
const SUBJECT = '(?:tasks?|requests?|conversations?|messages?|questions?|prompts?|quer(?:y|ies)|interactions?|turns?|responses?|sessions?|chats?|actions?|jobs?)';
/** What usually narrows an "any task …" phrase to the skill's own subject. */
const NARROWED = '(?!\\s{1,5}(?:involving|related|that|which|where|about|using|requiring|with|on|in|of|for|when|if|to|around|touching|needing|like))';

const BROAD_PATTERNS: RegExp[] = [
  new RegExp(
    `\\b(?:use|invoke|load|apply|activate|trigger|run|call|consult|read)\\s{1,5}(?:(?:this|the|me|it)\\s{1,5}(?:skill\\s{1,5})?)?(?:for|on|in|with|before|during|at the start of)\\s{1,5}(?:every|all|any|each)\\s{1,5}(?:single\\s{1,5}|other\\s{1,5}|user\\s{1,5})?${SUBJECT}\\b${NARROWED}`,
    'i',
  ),
  /\balways\s{1,5}(?:use|invoke|load|apply|activate|trigger|consult|read|run)\s{1,5}(?:this|me|it)\b(?!\s{1,5}(?:when|if|for|to))/i,
  /\b(?:must|should)\s{1,5}(?:always\s{1,5})?be\s{1,5}(?:used|invoked|loaded|applied|activated|triggered)\s{1,5}(?:for|on|before|in)\s{1,5}(?:every|all|any)\b/i,
  /\bbefore\s{1,5}(?:any|every|all)\s{1,5}other\s{1,5}(?:skills?|tools?|instructions?|actions?|steps?|responses?)\b/i,
  /\b(?:regardless|irrespective)\s{1,5}of\s{1,5}(?:the\s{1,5})?(?:task|request|topic|question|context|subject)\b/i,
  new RegExp(`\\b(?:for|on|in)\\s{1,5}every\\s{1,5}(?:single\\s{1,5})?${SUBJECT}\\b${NARROWED}`, 'i'),
];

/** The phrase of the description that makes it trigger on everything, or null. */
function broadTrigger(description: string): string | null {
  const text = description.length > 4096 ? description.slice(0, 4096) : description;
  for (const re of BROAD_PATTERNS) {
    const m = re.exec(text);
    if (m !== null) return m[0];
  }
  return null;
}

/** `` !`command` `` at the start of a line or after a space: the harness runs it when the skill loads. */
const LOAD_COMMAND = /(?:^|[\s(>])!`([^`\s][^`\n]{0,1000})`/g;

export function loadCommandFindings(lines: readonly string[], out: Findings): void {
  lines.forEach((line, i) => {
    for (const m of line.matchAll(LOAD_COMMAND)) {
      out.add('load-command', 'acts', 'SKILL.md', i + 1, m[0].trimStart(), 'Runs a command as soon as the skill is loaded, before the agent reads a word.');
    }
  });
}
