// Shared set-ups for the desktop mirror tests: skills made from folders of the Skills extension
// corpus (test/fixtures/corpus/ext-skills), temporary homes and data folders, and the messages
// the extension would send for them (lib/desktop/outbox.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '../../lib/desktop/protocol/limits';
import { type AgentChoices, type MirrorableSkill, planMirror } from '../../lib/desktop/outbox';
import { lfNormalize } from '../../lib/verify/digest';
import { CORPUS } from './corpus-sites';

export const EXT_SKILLS = join(CORPUS, 'ext-skills');
export const SAMPLE_SKILLS = join(EXT_SKILLS, 'experimental-ext-skills@a47f8b09/examples/sample-skills');
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SKILLPIN_BIN = join(REPO_ROOT, 'bin', 'skillpin');
/** Preload that makes any network call of the program under test fail and show on stderr. */
export const NO_NETWORK = join(REPO_ROOT, 'test', 'support', 'no-network.cjs');

const hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full, base) : [relative(base, full).split('\\').join('/')];
  });
}

/** A skill made of a corpus folder's files, as the extension would hand it over. */
export function skillFromFolder(dir: string, over: Partial<MirrorableSkill> = {}): MirrorableSkill {
  const paths = walk(dir).sort();
  const files = paths.map((path) => ({ path, bytes: new Uint8Array(readFileSync(join(dir, ...path.split('/')))) }));
  const skillMd = files.find((f) => f.path === 'SKILL.md')?.bytes ?? new Uint8Array(0);
  const archive = files.length > 1;
  return {
    origin: 'https://skills.example',
    url: `https://skills.example/${paths.length > 1 ? 'archives/x.zip' : 'skills/x/SKILL.md'}`,
    name: dir.split('/').pop() ?? 'skill',
    type: archive ? 'archive' : 'skill-md',
    files,
    digestLf: hex(lfNormalize(skillMd)),
    digestRaw: hex(skillMd),
    archiveSha256: archive ? hex(new TextEncoder().encode(dir)) : null,
    keyFingerprint: 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
    verification: 'signed',
    approvedAt: Date.UTC(2026, 10, 1, 12, 0, 0),
    grantsTools: false,
    hasScripts: false,
    ...over,
  };
}

/** A plain skill of one SKILL.md with the given text. */
export function textSkill(name: string, text: string, over: Partial<MirrorableSkill> = {}): MirrorableSkill {
  const bytes = new TextEncoder().encode(text);
  return {
    origin: 'https://skills.example',
    url: `https://skills.example/skills/${name}/SKILL.md`,
    name,
    type: 'skill-md',
    files: [{ path: 'SKILL.md', bytes }],
    digestLf: hex(lfNormalize(bytes)),
    digestRaw: hex(bytes),
    archiveSha256: null,
    keyFingerprint: null,
    verification: 'digest-only',
    approvedAt: Date.UTC(2026, 10, 2, 8, 30, 0),
    grantsTools: false,
    hasScripts: false,
    ...over,
  };
}

export const skillMd = (name: string, description: string, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nDo the thing.\n`;

export function choices(agents: AgentId[], confirmed: (url: string, agent: AgentId) => boolean = () => false): AgentChoices {
  return { agents, confirmed: (skill, agent) => confirmed(skill.url, agent) };
}

/** The sync and the puts (with ids) the extension sends for these skills. */
export async function messagesFor(skills: MirrorableSkill[], agentChoices: AgentChoices = choices([])) {
  const plan = await planMirror(skills, agentChoices);
  let id = 1;
  const sync = { ...plan.sync, id: id++ };
  const puts = [...plan.skills.values()].map((s) => ({ ...s.put(), id: id++ }));
  return { plan, sync, puts };
}

export interface TempPlaces {
  root: string;
  home: string;
  dataDir: string;
  cleanup(): void;
}

export function tempPlaces(): TempPlaces {
  const root = mkdtempSync(join(tmpdir(), 'skillpin-desktop-'));
  return { root, home: join(root, 'home'), dataDir: join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export const CHROME_ID = 'abcdefghijklmnopabcdefghijklmnop';
export const CHROME_CALLER = `chrome-extension://${CHROME_ID}/`;
