// In-memory publisher sites for engine tests: SKILL.md files, an llms.txt `## Skills`
// section, an index with digests and ed25519 signatures, served as `files` overlays of the
// loopback server. Every knob makes one malformed or hostile variant.
import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';

ed.hashes.sha512 = sha512;

const enc = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');

export interface KeyPair {
  secret: Uint8Array;
  publicKey: Uint8Array;
  b64: string;
}

export function keyPair(seedByte: number): KeyPair {
  const secret = new Uint8Array(32).fill(seedByte);
  const publicKey = ed.getPublicKey(secret);
  return { secret, publicKey, b64: b64(publicKey) };
}

export function lf(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) continue;
    out.push(bytes[i] as number);
  }
  return Uint8Array.from(out);
}

export function digestOf(bytes: Uint8Array): string {
  return hex(sha256(lf(bytes)));
}

export function sign(bytes: Uint8Array, key: KeyPair): string {
  return b64(ed.sign(lf(bytes), key.secret));
}

export interface SkillDef {
  name: string;
  /** Full SKILL.md text; a small valid document by default. */
  text?: string;
  /** Listed in llms.txt (default true). */
  llms?: boolean;
  /** Inline sha256 in the llms.txt comment (default true when listed). */
  inline?: boolean;
  /** Listed in the index (default true). */
  index?: boolean;
  /** Index digest: the real one, none, or a literal value. */
  digest?: 'good' | 'none' | string;
  /** Index signature: a valid one (when the site signs), none, or a literal value. */
  signature?: 'good' | 'none' | string;
  /** Extra index entry fields. */
  extra?: Record<string, unknown>;
  /** Serve this text instead of the published one. */
  served?: string | Uint8Array;
}

export interface SiteDef {
  skills: SkillDef[];
  key?: KeyPair | null;
  /** Override the index's signing fields. */
  signingKey?: string | null;
  signingAlg?: string | null;
  /** signing-key.pub body; defaults to the key when the site signs; null: not served. */
  pub?: string | null;
  llms?: boolean;
  index?: boolean;
}

export function skillText(name: string, body = 'Use this skill to work with the site.'): string {
  return `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n\n${body}\n`;
}

/** `files` overlays for startServer: path → bytes. */
export function buildSite(def: SiteDef): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  const entries: Record<string, unknown>[] = [];
  const items: string[] = [];
  const key = def.key ?? null;
  for (const s of def.skills) {
    const text = s.text ?? skillText(s.name);
    const bytes = enc.encode(text);
    const path = `/skills/${s.name}/SKILL.md`;
    files[path] = s.served ?? bytes;
    const d = digestOf(bytes);
    if (s.llms !== false) {
      const meta = s.inline === false ? '' : ` <!-- skill: ${JSON.stringify({ sha256: d })} -->`;
      items.push(`- [${s.name}](${path}): The ${s.name} skill.${meta}`);
    }
    if (s.index !== false) {
      const entry: Record<string, unknown> = { name: s.name, type: 'skill-md', description: `The ${s.name} skill.`, url: path };
      const digest = s.digest ?? 'good';
      if (digest === 'good') entry['digest'] = `sha256:${d}`;
      else if (digest !== 'none') entry['digest'] = digest;
      const signature = s.signature ?? 'good';
      if (signature === 'good' && key) entry['signature'] = sign(bytes, key);
      else if (signature !== 'good' && signature !== 'none') entry['signature'] = signature;
      Object.assign(entry, s.extra ?? {});
      entries.push(entry);
    }
  }
  if (def.llms !== false) files['/llms.txt'] = `# Test site\n\n> A site.\n\n## Skills\n\n${items.join('\n')}\n`;
  if (def.index !== false) {
    const index: Record<string, unknown> = { $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json' };
    const alg = def.signingAlg !== undefined ? def.signingAlg : key ? 'ed25519' : null;
    const sk = def.signingKey !== undefined ? def.signingKey : key ? key.b64 : null;
    if (alg !== null) index['signing_alg'] = alg;
    if (sk !== null) index['signing_key'] = sk;
    index['skills'] = entries;
    files['/.well-known/agent-skills/index.json'] = JSON.stringify(index, null, 2) + '\n';
  }
  const pub = def.pub !== undefined ? def.pub : key ? key.b64 + '\n' : null;
  if (pub !== null) files['/.well-known/agent-skills/signing-key.pub'] = pub;
  return files;
}
