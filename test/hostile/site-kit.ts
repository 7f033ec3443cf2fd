// Small builders for hostile sites: SKILL.md text, llms.txt `## Skills` sections, skill indexes,
// digests and signatures, and signed publisher sites (written by scripts/lib/publisher-site.mjs
// into a temporary folder and read back as bytes).
import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { keyPair, lfNormalize, skillMarkdown, writePublisherSite, type SiteSpec, type SkillSpec } from '../../scripts/lib/publisher-site.mjs';
import type { Reply, ReplySpec, SiteStage } from './types';

ed.hashes.sha512 = sha512;

const encoder = new TextEncoder();

export function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** SHA-256 of the raw bytes, lowercase hex. */
export function rawDigest(body: string | Uint8Array): string {
  return hex(sha256(bytesOf(body)));
}

/** SHA-256 of the CR LF → LF bytes, lowercase hex. */
export function lfDigest(body: string | Uint8Array): string {
  return hex(sha256(lfNormalize(bytesOf(body))));
}

/** A deterministic 32-byte seed. */
export function seed(n: number): Uint8Array {
  return new Uint8Array(32).fill(n & 0xff);
}

export { keyPair, lfNormalize };

/** Signs the LF-normalized bytes (what the index signature covers), base64. */
export function signSkill(body: string | Uint8Array, secret: Uint8Array): string {
  return b64(ed.sign(lfNormalize(bytesOf(body)), secret));
}

/** A well-formed SKILL.md for `name`. */
export function skillText(name: string, body?: string): string {
  const spec: SkillSpec = { name, description: `The ${name} skill of a hostile publisher.` };
  if (body !== undefined) spec.body = body;
  return skillMarkdown(spec);
}

// ---------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------

export function text(body: string | Uint8Array, contentType = 'text/plain; charset=utf-8', extra: Partial<Extract<Reply, { kind: 'bytes' }>> = {}): Reply {
  return { kind: 'bytes', body, contentType, ...extra };
}

export function markdown(body: string | Uint8Array, extra: Partial<Extract<Reply, { kind: 'bytes' }>> = {}): Reply {
  return { kind: 'bytes', body, contentType: 'text/markdown; charset=utf-8', ...extra };
}

export function json(body: string | Uint8Array | object, extra: Partial<Extract<Reply, { kind: 'bytes' }>> = {}): Reply {
  const raw = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body, null, 2);
  return { kind: 'bytes', body: raw, contentType: 'application/json', ...extra };
}

export function html(body: string, status = 200): Reply {
  return { kind: 'bytes', body, contentType: 'text/html; charset=utf-8', status };
}

export function redirect(location: string | null, status: 301 | 302 | 303 | 307 | 308 = 302): Reply {
  return { kind: 'redirect', status, location };
}

export const SOFT_404 = '<!doctype html>\n<html><head><title>Not found</title></head><body><div id="app">Page not found</div></body></html>\n';

// ---------------------------------------------------------------------------
// Discovery documents
// ---------------------------------------------------------------------------

export interface LlmsItem {
  title: string;
  url: string;
  description?: string;
  /** Inline comment object (written as JSON), e.g. `{ sha256 }`. */
  meta?: Record<string, unknown>;
  /** A verbatim line instead of the generated one. */
  raw?: string;
}

/** An llms.txt with a `## Skills` section listing `items`. */
export function llmsTxt(items: LlmsItem[], opts: { title?: string; before?: string; after?: string; eol?: string } = {}): string {
  const eol = opts.eol ?? '\n';
  const lines = [`# ${opts.title ?? 'Hostile publisher'}`, '', '> A site that publishes Agent Skills.', ''];
  if (opts.before) lines.push(opts.before, '');
  lines.push('## Skills', '');
  for (const it of items) {
    if (it.raw !== undefined) {
      lines.push(it.raw);
      continue;
    }
    const desc = it.description ?? `the ${it.title} skill`;
    const meta = it.meta ? ` <!-- skill: ${JSON.stringify(it.meta)} -->` : '';
    lines.push(`- [${it.title}](${it.url}): ${desc}${meta}`);
  }
  if (opts.after) lines.push('', opts.after);
  return lines.join(eol) + eol;
}

export interface IndexEntry {
  name?: string;
  url?: string;
  type?: string;
  description?: string;
  digest?: string;
  sha256?: string;
  signature?: string;
  [key: string]: unknown;
}

/** A v0.2.0 index. */
export function indexDoc(entries: unknown[], opts: { signingKey?: string; signingAlg?: string; extra?: Record<string, unknown> } = {}): Record<string, unknown> {
  const doc: Record<string, unknown> = { $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json' };
  if (opts.signingAlg !== undefined) doc['signing_alg'] = opts.signingAlg;
  if (opts.signingKey !== undefined) doc['signing_key'] = opts.signingKey;
  Object.assign(doc, opts.extra ?? {});
  doc['skills'] = entries;
  return doc;
}

/** An index entry for a SKILL.md served at `url` with these bytes, declaring its raw digest. */
export function entryFor(name: string, url: string, body: string | Uint8Array, extra: Partial<IndexEntry> = {}): IndexEntry {
  return { name, type: 'skill-md', description: `The ${name} skill.`, url, digest: `sha256:${rawDigest(body)}`, ...extra };
}

export const PATH = {
  llms: '/llms.txt',
  index: '/.well-known/agent-skills/index.json',
  legacy: '/.well-known/skills/index.json',
  pub: '/.well-known/agent-skills/signing-key.pub',
} as const;

export interface SimpleSkill {
  name: string;
  /** Default `/skills/<name>/SKILL.md`. */
  path?: string;
  body?: string | Uint8Array;
  /** Reply for the artifact (default: the body as markdown). */
  reply?: ReplySpec;
  /** Index entry overrides (`undefined` values remove a field). */
  entry?: Partial<IndexEntry>;
}

/** A one-stage site with an unsigned index listing `skills` (raw digests) and their SKILL.md files. */
export function indexSite(skills: SimpleSkill[], opts: { index?: Record<string, unknown>; paths?: Record<string, ReplySpec>; llms?: ReplySpec } = {}): SiteStage {
  const paths: Record<string, ReplySpec> = {};
  const entries: IndexEntry[] = [];
  for (const s of skills) {
    const path = s.path ?? `/skills/${s.name}/SKILL.md`;
    const body = s.body ?? skillText(s.name);
    const entry: IndexEntry = { ...entryFor(s.name, path, body), ...(s.entry ?? {}) };
    for (const k of Object.keys(entry)) if (entry[k] === undefined) delete entry[k];
    entries.push(entry);
    if (path.startsWith('/')) paths[path] = s.reply ?? markdown(body);
  }
  paths[PATH.index] = json(indexDoc(entries, {}), {});
  if (opts.index) paths[PATH.index] = json({ ...indexDoc(entries), ...opts.index });
  if (opts.llms) paths[PATH.llms] = opts.llms;
  Object.assign(paths, opts.paths ?? {});
  return { paths };
}

// ---------------------------------------------------------------------------
// Signed sites from the shared publisher writer
// ---------------------------------------------------------------------------

export interface PublishedSite {
  /** Every file of the site by path (`/llms.txt`, `/skills/a/SKILL.md`, …). */
  files: Record<string, Uint8Array>;
  keys: { secret: Uint8Array; publicKey: Uint8Array; publicKeyB64: string };
  /** The parsed index, for tampering. */
  index: { signing_alg?: string; signing_key?: string; skills: IndexEntry[]; [key: string]: unknown };
}

function readTree(dir: string): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else out['/' + relative(dir, full).split(sep).join('/')] = new Uint8Array(readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

/** A publisher site as scripts/lib/publisher-site.mjs writes it, held in memory. */
export function published(spec: SiteSpec): PublishedSite {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-hostile-'));
  try {
    const { keys } = writePublisherSite(dir, spec);
    const files = readTree(dir);
    const indexBytes = files[PATH.index];
    const index = indexBytes ? (JSON.parse(new TextDecoder().decode(indexBytes)) as PublishedSite['index']) : { skills: [] };
    return { files, keys, index };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files of a published site as replies, with the index replaced by `index` when given. */
export function stageOf(site: PublishedSite, opts: { index?: object | string | null; omit?: string[]; paths?: Record<string, ReplySpec> } = {}): SiteStage {
  const paths: Record<string, ReplySpec> = {};
  for (const [path, bytes] of Object.entries(site.files)) {
    if (opts.omit?.includes(path)) continue;
    if (path.endsWith('.md')) paths[path] = markdown(bytes);
    else if (path.endsWith('.json')) paths[path] = json(bytes);
    else if (path.endsWith('.html')) paths[path] = html(new TextDecoder().decode(bytes));
    else paths[path] = text(bytes);
  }
  if (opts.index === null) delete paths[PATH.index];
  else if (opts.index !== undefined) paths[PATH.index] = json(typeof opts.index === 'string' ? opts.index : JSON.stringify(opts.index, null, 2));
  Object.assign(paths, opts.paths ?? {});
  return { paths };
}

/** A deep copy of a published index, for tampering. */
export function cloneIndex(site: PublishedSite): PublishedSite['index'] {
  return JSON.parse(JSON.stringify(site.index)) as PublishedSite['index'];
}

/** Two skills signed under the key of `seedByte`, llms.txt and index both listing them. */
export function signedTwo(seedByte: number, names: [string, string] = ['alpha', 'beta'], extra: Partial<SiteSpec> = {}): PublishedSite {
  return published({
    seed: seed(seedByte),
    skills: names.map((name) => ({ name, description: `The ${name} skill.` })),
    ...extra,
  });
}
