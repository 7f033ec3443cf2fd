// @ts-check
// Writes a publisher site folder: SKILL.md files, llms.txt with a `## Skills` section
// (inline sha256), the well-known index (v0.2.0 shape, digest + sha256, ed25519
// signatures over the LF-normalized bytes) and signing-key.pub. Used by the demo,
// the end-to-end tests and the benchmarks. Keys are fresh unless a seed is given.
import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

ed.hashes.sha512 = sha512;

/** @param {Uint8Array} b */
const hex = (b) => Buffer.from(b).toString('hex');
/** @param {Uint8Array} b */
const b64 = (b) => Buffer.from(b).toString('base64');

/** @param {Uint8Array} bytes */
export function lfNormalize(bytes) {
  const out = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) continue;
    out.push(bytes[i]);
  }
  return Uint8Array.from(out);
}

/**
 * @typedef {{ name: string, description: string, body?: string, version?: string, license?: string, signed?: boolean, raw?: string }} SkillSpec
 * @typedef {{ seed?: Uint8Array, sign?: boolean, title?: string, skills: SkillSpec[], llmsTxt?: boolean, index?: boolean, clean?: boolean }} SiteSpec
 */

/** A fresh or seeded ed25519 key pair. @param {Uint8Array} [seed] */
export function keyPair(seed) {
  const secret = seed ?? Uint8Array.from(randomBytes(32));
  const publicKey = ed.getPublicKey(secret);
  return { secret, publicKey, publicKeyB64: b64(publicKey) };
}

/** @param {SkillSpec} s */
export function skillMarkdown(s) {
  if (s.raw !== undefined) return s.raw;
  const lines = ['---', `name: ${s.name}`, `description: ${JSON.stringify(s.description)}`];
  if (s.version) lines.push(`version: "${s.version}"`);
  if (s.license) lines.push(`license: ${s.license}`);
  lines.push('---', '', `# ${s.name}`, '', s.body ?? `Use this skill to work with ${s.name}.\n\n1. Read the page.\n2. Answer precisely.`, '');
  return lines.join('\n');
}

/**
 * Writes the site into `dir` and returns what it published.
 * @param {string} dir
 * @param {SiteSpec} spec
 */
export function writePublisherSite(dir, spec) {
  if (spec.clean !== false) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sign = spec.sign !== false;
  const keys = keyPair(spec.seed);
  const entries = [];
  const items = [];
  for (const s of spec.skills) {
    const bytes = Buffer.from(skillMarkdown(s), 'utf8');
    const path = `skills/${s.name}/SKILL.md`;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
    const digest = hex(sha256(lfNormalize(bytes)));
    /** @type {{ name: string, type: string, description: string, url: string, digest: string, sha256: string, signature?: string }} */
    const entry = { name: s.name, type: 'skill-md', description: s.description, url: `/${path}`, digest: `sha256:${digest}`, sha256: digest };
    if (sign && s.signed !== false) entry.signature = b64(ed.sign(lfNormalize(bytes), keys.secret));
    entries.push(entry);
    const meta = { sha256: digest, ...(s.version ? { version: s.version } : {}), ...(s.license ? { license: s.license } : {}) };
    items.push(`- [${s.name}](/${path}): ${s.description} <!-- skill: ${JSON.stringify(meta)} -->`);
  }
  const title = spec.title ?? 'Demo publisher';
  if (spec.llmsTxt !== false) {
    writeFileSync(join(dir, 'llms.txt'), `# ${title}\n\n> A local site that publishes Agent Skills.\n\n## Docs\n\n- [Home](/): the home page\n\n## Skills\n\n${items.join('\n')}\n`);
  }
  if (spec.index !== false) {
    const index = {
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      ...(sign ? { signing_alg: 'ed25519', signing_key: keys.publicKeyB64 } : {}),
      skills: entries,
    };
    mkdirSync(join(dir, '.well-known/agent-skills'), { recursive: true });
    writeFileSync(join(dir, '.well-known/agent-skills/index.json'), JSON.stringify(index, null, 2) + '\n');
    if (sign) writeFileSync(join(dir, '.well-known/agent-skills/signing-key.pub'), keys.publicKeyB64 + '\n');
  }
  const list = spec.skills.map((s) => `<li><a href="/skills/${s.name}/SKILL.md">${s.name}</a>: ${s.description}</li>`).join('');
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>This site publishes Agent Skills.</p><ul>${list}</ul></body></html>\n`,
  );
  return { dir, keys, entries };
}

/** Five skills for the demo and the tests. */
export const DEMO_SKILLS = [
  { name: 'search-docs', description: "Search this site's documentation and cite the page you used.", version: '1.2.0', license: 'MIT' },
  { name: 'open-ticket', description: 'File a support ticket with the right product, severity and reproduction steps.', version: '0.9.1', license: 'Apache-2.0' },
  { name: 'api-client', description: 'Call the public REST API with pagination and rate limits handled.', version: '2.0.0', license: 'MIT' },
  { name: 'release-notes', description: 'Summarise release notes between two versions.', version: '1.0.0' },
  { name: 'style-guide', description: "Write in this site's house style: short sentences, active voice, no jargon." },
];
