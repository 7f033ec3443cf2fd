// The desktop mirror protocol (docs/desktop.md): the messages the extension and the host
// program exchange over native messaging, and the one check of each. Both sides import this
// module, so a field is read the same way at both ends; nothing here touches I/O.
import { isJsonObject } from '../parse/common';
import { type AgentId, isAgentId, MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, MAX_SKILLS_IN_SYNC, MAX_STRING_LENGTH, PROTOCOL_VERSION } from './limits';
import { checkSkillPaths } from './paths';
import type { DesktopAgentId } from '../types';

/** A skill's identity: the origin it was found on and the URL of its SKILL.md or archive. */
export interface SkillRef {
  origin: string;
  url: string;
}

/**
 * Signed: verified with the origin's pinned key. Digest-only: its bytes matched the published
 * digest, unsigned. Unverified: nothing declared a digest; the user approved these exact bytes
 * after a warning (PRODUCT.md §4).
 */
export type Verification = 'signed' | 'digest-only' | 'unverified';

export const VERIFICATIONS: readonly Verification[] = ['signed', 'digest-only', 'unverified'];

/**
 * One agent folder the user picked for a skill. A skill that grants tools or carries scripts
 * needs `confirmedRevision` equal to its revision: the user confirmed this content for this agent.
 */
export interface AgentRequest {
  agent: AgentId;
  confirmedRevision: string | null;
}

export interface SyncEntry extends SkillRef {
  revision: string;
  agents: AgentRequest[];
  /**
   * The revision the user confirmed for the skill as a whole (one confirmation at approval covers
   * every place): the MCP server serves a skill that grants tools or carries scripts only with it.
   * Null when there is none (or none is needed); absent from an older extension's messages.
   */
  confirmedRevision: string | null;
}

export interface WireFile {
  path: string;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  size: number;
  /** Standard base64 of the bytes. */
  data: string;
}

/** The facts a skill was approved on: what the mirror records beside its files. */
export interface SkillFacts extends SkillRef {
  name: string;
  type: 'skill-md' | 'archive';
  /** SHA-256 (hex) of SKILL.md after CR LF → LF, and of its raw bytes. */
  digestLf: string;
  digestRaw: string;
  /** SHA-256 (hex) of the archive the files came from; null for a plain SKILL.md. */
  archiveSha256: string | null;
  keyFingerprint: string | null;
  verification: Verification;
  /** When the user approved it (ms since the epoch). */
  approvedAt: number;
}

/** A skill as the extension hands it over: its approved files and the facts they were approved on. */
export interface WireSkill extends SkillFacts {
  /** skillRevision() of the facts and the files' paths, digests and sizes. */
  revision: string;
  files: WireFile[];
}

/**
 * Every request may carry `profile`: the browser profile's id (32 lowercase hex digits, made once
 * and kept in the profile's storage), so each profile keeps its own part of the mirror. Null when
 * the message has none (an extension from before profiles had ids).
 */
export type HostRequest =
  | { type: 'hello'; id: number; profile: string | null; protocol: number }
  | { type: 'sync'; id: number; profile: string | null; skills: SyncEntry[] }
  | { type: 'put'; id: number; profile: string | null; skill: WireSkill; agents: AgentRequest[]; confirmedRevision: string | null }
  | { type: 'status'; id: number; profile: string | null };

export const PROFILE_ID = /^[0-9a-f]{32}$/;

export type AgentState = 'written' | 'unchanged' | 'removed' | 'needs-confirmation' | 'name-taken' | 'copy-modified' | 'failed';

export interface AgentOutcome extends SkillRef {
  agent: AgentId;
  state: AgentState;
  /** The folder name under the agent's skills folder, when there is one. */
  folder: string | null;
  message: string | null;
}

export interface HeldSkill extends SkillRef {
  name: string;
  revision: string;
  verification: Verification;
  approvedAt: number;
  agents: { agent: AgentId; folder: string }[];
}

export type ErrorCode =
  | 'message-too-large'
  | 'malformed-json'
  | 'unknown-type'
  | 'invalid-message'
  | 'unsupported-protocol'
  | 'caller-not-allowed'
  | 'digest-mismatch'
  | 'revision-mismatch'
  | 'busy'
  | 'not-installed'
  | 'internal';

export type HostReply =
  | {
      type: 'hello';
      id: number;
      protocol: number;
      version: string;
      held: number;
      agents: { agent: AgentId; folder: string; present: boolean }[];
      /** The desktop agents whose own folder exists in the home (host 1.2.0 and later). */
      found?: DesktopAgentId[];
    }
  | { type: 'synced'; id: number; missing: SkillRef[]; removed: SkillRef[]; agents: AgentOutcome[] }
  | { type: 'stored'; id: number; skill: SkillRef; agents: AgentOutcome[] }
  | { type: 'status'; id: number; skills: HeldSkill[]; truncated: boolean }
  | { type: 'error'; id: number | null; code: ErrorCode; message: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string; id: number | null };

const HEX64 = /^[0-9a-f]{64}$/;
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

function keysOnly(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`${what} has an unknown field ${JSON.stringify(key.slice(0, 40))}`);
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (!isJsonObject(value)) fail(`${what} is not an object`);
  return value;
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_STRING_LENGTH) fail(`${what} is not a string of 1–${MAX_STRING_LENGTH} characters`);
  if (CONTROL.test(value)) fail(`${what} holds a control character`);
  return value;
}

function hex(value: unknown, what: string): string {
  if (typeof value !== 'string' || !HEX64.test(value)) fail(`${what} is not 64 lowercase hex digits`);
  return value;
}

function count(value: unknown, what: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) fail(`${what} is not a whole number from 0 to ${max}`);
  return value;
}

function array(value: unknown, what: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value) || value.length < min || value.length > max) fail(`${what} is not a list of ${min}–${max} items`);
  return value;
}

/** An http(s) origin exactly as URL spells it (`scheme://host[:port]`). */
export function isWebOrigin(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === value;
  } catch {
    return false;
  }
}

function isWebUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.href === value;
  } catch {
    return false;
  }
}

function ref(value: Record<string, unknown>, what: string): SkillRef {
  const origin = str(value.origin, `${what}.origin`);
  if (!isWebOrigin(origin)) fail(`${what}.origin is not an http(s) origin`);
  const url = str(value.url, `${what}.url`);
  if (!isWebUrl(url)) fail(`${what}.url is not an http(s) URL in its normal form`);
  return { origin, url };
}

function agents(value: unknown, what: string): AgentRequest[] {
  const out: AgentRequest[] = [];
  for (const [i, item] of array(value, what, 0, 8).entries()) {
    const a = object(item, `${what}[${i}]`);
    keysOnly(a, ['agent', 'confirmedRevision'], `${what}[${i}]`);
    if (!isAgentId(a.agent)) fail(`${what}[${i}].agent is not a known agent`);
    if (out.some((o) => o.agent === a.agent)) fail(`${what} names ${a.agent} twice`);
    const confirmed = a.confirmedRevision === null ? null : hex(a.confirmedRevision, `${what}[${i}].confirmedRevision`);
    out.push({ agent: a.agent, confirmedRevision: confirmed });
  }
  return out;
}

/** The byte length a strict base64 string decodes to. */
export function base64Length(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - pad;
}

function file(value: unknown, what: string): WireFile {
  const f = object(value, what);
  keysOnly(f, ['path', 'sha256', 'size', 'data'], what);
  if (typeof f.path !== 'string') fail(`${what}.path is not a string`);
  const sha256 = hex(f.sha256, `${what}.sha256`);
  const size = count(f.size, `${what}.size`, MAX_BYTES_PER_SKILL);
  if (typeof f.data !== 'string' || !BASE64.test(f.data)) fail(`${what}.data is not standard base64`);
  if (base64Length(f.data) !== size) fail(`${what}.data does not hold ${size} bytes`);
  return { path: f.path, sha256, size, data: f.data };
}

const SKILL_FIELDS = ['origin', 'url', 'name', 'type', 'digestLf', 'digestRaw', 'archiveSha256', 'keyFingerprint', 'verification', 'approvedAt', 'revision', 'files'];

function skill(value: unknown): WireSkill {
  const s = object(value, 'skill');
  keysOnly(s, SKILL_FIELDS, 'skill');
  const { origin, url } = ref(s, 'skill');
  const name = str(s.name, 'skill.name');
  if (s.type !== 'skill-md' && s.type !== 'archive') fail('skill.type is neither skill-md nor archive');
  const archiveSha256 = s.archiveSha256 === null ? null : hex(s.archiveSha256, 'skill.archiveSha256');
  if ((s.type === 'archive') !== (archiveSha256 !== null)) fail('skill.archiveSha256 is given exactly when skill.type is archive');
  let keyFingerprint: string | null = null;
  if (s.keyFingerprint !== null) {
    if (typeof s.keyFingerprint !== 'string' || !FINGERPRINT.test(s.keyFingerprint)) fail('skill.keyFingerprint is not a SHA256: key fingerprint');
    keyFingerprint = s.keyFingerprint;
  }
  if (!VERIFICATIONS.includes(s.verification as Verification)) fail('skill.verification is not signed, digest-only or unverified');
  if (s.verification === 'signed' && keyFingerprint === null) fail('a signed skill needs skill.keyFingerprint');
  const files = array(s.files, 'skill.files', 1, MAX_FILES_PER_SKILL).map((f, i) => file(f, `skill.files[${i}]`));
  const paths = checkSkillPaths(files.map((f) => f.path));
  if (!paths.ok) fail(`skill.files: ${paths.message}`);
  if (s.type === 'skill-md' && files.length !== 1) fail('a skill-md skill carries exactly one file, SKILL.md');
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > MAX_BYTES_PER_SKILL) fail(`skill.files hold ${total} bytes, more than ${MAX_BYTES_PER_SKILL}`);
  return {
    origin,
    url,
    name,
    type: s.type,
    digestLf: hex(s.digestLf, 'skill.digestLf'),
    digestRaw: hex(s.digestRaw, 'skill.digestRaw'),
    archiveSha256,
    keyFingerprint,
    verification: s.verification as Verification,
    approvedAt: count(s.approvedAt, 'skill.approvedAt'),
    revision: hex(s.revision, 'skill.revision'),
    files,
  };
}

function syncEntries(value: unknown): SyncEntry[] {
  const seen = new Set<string>();
  return array(value, 'skills', 0, MAX_SKILLS_IN_SYNC).map((item, i) => {
    const e = object(item, `skills[${i}]`);
    keysOnly(e, ['origin', 'url', 'revision', 'agents', 'confirmedRevision'], `skills[${i}]`);
    const r = ref(e, `skills[${i}]`);
    const key = `${r.origin} ${r.url}`;
    if (seen.has(key)) fail(`skills names ${r.url} twice`);
    seen.add(key);
    return {
      ...r,
      revision: hex(e.revision, `skills[${i}].revision`),
      agents: agents(e.agents, `skills[${i}].agents`),
      confirmedRevision: confirmedOf(e.confirmedRevision, `skills[${i}].confirmedRevision`),
    };
  });
}

function confirmedOf(value: unknown, what: string): string | null {
  return value === undefined || value === null ? null : hex(value, what);
}

function profileOf(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !PROFILE_ID.test(value)) fail('profile is not 32 lowercase hex digits');
  return value;
}

function messageId(value: Record<string, unknown>): number | null {
  const id = value.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null;
}

/** Checks a message the host received. Never throws; a refusal names the first problem found. */
export function parseHostRequest(value: unknown): Parsed<HostRequest> {
  if (!isJsonObject(value)) return { ok: false, code: 'invalid-message', message: 'The message is not a JSON object.', id: null };
  const id = messageId(value);
  const type = value.type;
  if (type !== 'hello' && type !== 'sync' && type !== 'put' && type !== 'status') {
    return { ok: false, code: 'unknown-type', message: `Unknown message type ${JSON.stringify(String(type).slice(0, 40))}.`, id };
  }
  try {
    if (id === null) fail('id is not a whole number');
    const profile = profileOf(value.profile);
    switch (type) {
      case 'hello':
        keysOnly(value, ['type', 'id', 'profile', 'protocol'], 'hello');
        if (value.protocol !== PROTOCOL_VERSION) {
          return { ok: false, code: 'unsupported-protocol', message: `This host speaks protocol ${PROTOCOL_VERSION}, not ${JSON.stringify(value.protocol)}.`, id };
        }
        return { ok: true, value: { type, id, profile, protocol: PROTOCOL_VERSION } };
      case 'sync':
        keysOnly(value, ['type', 'id', 'profile', 'skills'], 'sync');
        return { ok: true, value: { type, id, profile, skills: syncEntries(value.skills) } };
      case 'put':
        keysOnly(value, ['type', 'id', 'profile', 'skill', 'agents', 'confirmedRevision'], 'put');
        return {
          ok: true,
          value: { type, id, profile, skill: skill(value.skill), agents: agents(value.agents, 'agents'), confirmedRevision: confirmedOf(value.confirmedRevision, 'confirmedRevision') },
        };
      default:
        keysOnly(value, ['type', 'id', 'profile'], 'status');
        return { ok: true, value: { type, id, profile } };
    }
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, code: 'invalid-message', message: `The ${type} message is not valid: ${error.message}.`, id };
    throw error;
  }
}
