// What the MCP server serves (docs/desktop.md): every skill of the mirror whose record is
// consistent and whose files all match their approved digests right now, each under
// `skill://<host label>/<name>/…`. A skill that fails any check is left out, with the reason kept
// so that a direct request for it gets a clear error.
import { metadataIn } from '../lib/desktop/protocol/paths';
import { skillRevision } from '../lib/desktop/protocol/revision';
import { followsNameRule } from '../lib/parse/common';
import { parseFrontmatter } from '../lib/parse/skill-md';
import { type Mirror, type MirrorRecord, sha256Hex } from './mirror';
import { grantsNeedingConfirmation } from './placement';

export interface ServedSkill {
  /** `skill://<label>/<name>` (no trailing slash): the skill's root directory resource. */
  root: string;
  /** `<root>/SKILL.md`. */
  uri: string;
  record: MirrorRecord;
  frontmatter: Record<string, unknown>;
}

/**
 * The URI authority for an origin: its host, then `_<port>` for a port other than the scheme's
 * default, then `_http` for plain http (a valid RFC 3986 reg-name; never resolved).
 */
export function originLabel(origin: string): string {
  const u = new URL(origin);
  const host = u.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/:/g, '-')
    .toLowerCase();
  return `${host}${u.port ? `_${u.port}` : ''}${u.protocol === 'http:' ? '_http' : ''}`;
}

/** Where a served skill came from and how it was approved, as the MCP replies name it. */
export const approvalOf = (r: MirrorRecord) => ({ origin: r.origin, url: r.url, verification: r.verification, keyFingerprint: r.keyFingerprint, approvedAt: new Date(r.approvedAt).toISOString() });

const short = (text: string): string => sha256Hex(text).slice(0, 8);

function frontmatterOf(bytes: Uint8Array): Record<string, unknown> | null {
  const fm = parseFrontmatter(bytes);
  if (fm.data === null || fm.name === null || !followsNameRule(fm.name) || fm.description === null) return null;
  // Verbatim as JSON: what JSON cannot carry (e.g. YAML's .inf) becomes what JSON.stringify makes of it.
  return JSON.parse(JSON.stringify(fm.data)) as Record<string, unknown>;
}

/**
 * The frontmatter a skill is served with, or why it is not served: its files do not match its
 * record, it carries version-control metadata, it grants tools or carries scripts and the user did
 * not confirm this revision for the skill, or its frontmatter is unusable.
 */
function judge(mirror: Mirror, record: MirrorRecord): { frontmatter: Record<string, unknown> } | { reason: string } {
  const files = skillRevision(record) === record.revision ? mirror.verifiedFiles(record) : null;
  if (files === null) return { reason: 'Its files on disk do not match the approved digests, so it is not served.' };
  const metadata = record.files.find((f) => metadataIn(f.path) !== null);
  if (metadata !== undefined) return { reason: `It carries version-control metadata (${metadata.path}), which Skillpin never hands to desktop agents.` };
  const what = grantsNeedingConfirmation(files);
  if (what !== null && record.confirmedRevision !== record.revision) return { reason: `It grants tools or carries scripts (${what}) and was not confirmed, so it is not served.` };
  const frontmatter = frontmatterOf(files.get('SKILL.md') ?? new Uint8Array(0));
  return frontmatter === null ? { reason: 'Its SKILL.md has no frontmatter with a valid name and a description, which the Skills extension requires.' } : { frontmatter };
}

/** Builds the catalog from the mirror, checking every byte. The same skill from two browsers is served once (the later approval). */
export function buildCatalog(mirror: Mirror) {
  /** Skill URIs (or origin and URL, when no URI could be made) that are not served, with why. */
  const refused: { uri: string | null; origin: string; url: string; reason: string }[] = [];
  const chosen = new Map<string, { record: MirrorRecord; frontmatter: Record<string, unknown> }>();
  for (const record of mirror.records()) {
    const judged = judge(mirror, record);
    if ('reason' in judged) {
      refused.push({ uri: null, origin: record.origin, url: record.url, reason: judged.reason });
      continue;
    }
    const id = `${record.origin} ${record.url}`;
    const before = chosen.get(id);
    if (before === undefined || before.record.approvedAt < record.approvedAt) chosen.set(id, { record, frontmatter: judged.frontmatter });
  }
  const byPath = new Map<string, { record: MirrorRecord; frontmatter: Record<string, unknown> }[]>();
  for (const item of chosen.values()) {
    const path = `${originLabel(item.record.origin)}/${item.frontmatter.name as string}`;
    byPath.set(path, [...(byPath.get(path) ?? []), item]);
  }
  const skills: ServedSkill[] = [];
  for (const [path, items] of byPath) {
    for (const item of items) {
      // Two skills of one origin with one name: each gets a prefix segment from its URL.
      const [label, name] = path.split('/') as [string, string];
      const root = items.length === 1 ? `skill://${path}` : `skill://${label}/${short(item.record.url)}/${name}`;
      skills.push({ root, uri: `${root}/SKILL.md`, record: item.record, frontmatter: item.frontmatter });
    }
  }
  skills.sort((a, b) => (a.uri < b.uri ? -1 : 1));
  return { skills, refused };
}
