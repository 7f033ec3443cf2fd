// The host's answer to each message (docs/desktop.md): hello, sync, put, status. Writes
// happen under the mirror's lock; a message that fails a check changes nothing.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { AGENT_IDS, MAX_MESSAGE_TO_BROWSER, PROTOCOL_VERSION } from '../lib/desktop/limits';
import type { AgentOutcome, AgentRequest, HeldSkill, HostReply, HostRequest, SkillRef, WireSkill } from '../lib/desktop/protocol';
import { skillKey, skillRevision } from '../lib/desktop/revision';
import { decodeBase64Strict } from '../lib/verify/base64';
import { lfNormalize } from '../lib/verify/digest';
import { agentRoot } from './agents';
import { withLock } from './lock';
import { type MirrorRecord, sha256Hex } from './mirror';
import { dropCopy, type HostContext, placeCopy } from './placement';

export const HOST_VERSION = '1.0.0';

const refOf = (r: SkillRef): SkillRef => ({ origin: r.origin, url: r.url });

/** Removes a skill from the mirror and every agent copy the host wrote of it. */
function removeSkill(ctx: HostContext, record: MirrorRecord): AgentOutcome[] {
  const out: AgentOutcome[] = [];
  for (const { agent } of [...record.agents]) {
    const o = dropCopy(ctx, record, agent);
    if (o !== null) out.push(o);
  }
  ctx.mirror.remove(record);
  return out;
}

/** Writes the copies asked for and removes the others; the record is rewritten when they changed. */
function reconcile(ctx: HostContext, record: MirrorRecord, requests: AgentRequest[], files: Map<string, Uint8Array>): AgentOutcome[] {
  const before = JSON.stringify(record.agents);
  const all = ctx.mirror.records();
  const out = requests.map((r) => placeCopy(ctx, record, r, files, all));
  for (const { agent } of [...record.agents]) {
    if (requests.some((r) => r.agent === agent)) continue;
    const o = dropCopy(ctx, record, agent);
    if (o !== null) out.push(o);
  }
  if (JSON.stringify(record.agents) !== before) ctx.mirror.rewrite(record);
  return out;
}

function sync(ctx: HostContext, id: number, entries: { origin: string; url: string; revision: string; agents: AgentRequest[] }[]): HostReply {
  const wanted = new Map(entries.map((e) => [skillKey(e), e]));
  const missing: SkillRef[] = [];
  const removed: SkillRef[] = [];
  const agents: AgentOutcome[] = [];
  const held = new Set<string>();
  for (const record of ctx.mirror.records(ctx.caller)) {
    const entry = wanted.get(record.key);
    const files = entry !== undefined && entry.revision === record.revision ? ctx.mirror.verifiedFiles(record) : null;
    if (entry === undefined || files === null) {
      agents.push(...removeSkill(ctx, record));
      if (entry === undefined) removed.push(refOf(record));
      continue;
    }
    held.add(record.key);
    agents.push(...reconcile(ctx, record, entry.agents, files));
  }
  for (const [key, entry] of wanted) if (!held.has(key)) missing.push(refOf(entry));
  return { type: 'synced', id, missing, removed, agents };
}

type Checked = { ok: true; files: Map<string, Uint8Array> } | { ok: false; code: 'digest-mismatch' | 'revision-mismatch'; message: string };

/** Decodes the files and checks every digest the message claims, and the revision over them. */
export function checkSkill(skill: WireSkill): Checked {
  const files = new Map<string, Uint8Array>();
  for (const f of skill.files) {
    const bytes = decodeBase64Strict(f.data);
    if (bytes === null || bytes.length !== f.size || sha256Hex(bytes) !== f.sha256) {
      return { ok: false, code: 'digest-mismatch', message: `The bytes of ${JSON.stringify(f.path)} do not match their SHA-256 or size; nothing was stored.` };
    }
    files.set(f.path, bytes);
  }
  const skillMd = files.get('SKILL.md') as Uint8Array;
  if (sha256Hex(skillMd) !== skill.digestRaw || sha256Hex(lfNormalize(skillMd)) !== skill.digestLf) {
    return { ok: false, code: 'digest-mismatch', message: 'SKILL.md does not match the approved digests; nothing was stored.' };
  }
  const { files: _wire, revision, ...facts } = skill;
  const computed = skillRevision({ ...facts, files: skill.files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })) });
  if (computed !== revision) return { ok: false, code: 'revision-mismatch', message: 'The revision does not match the skill’s facts; nothing was stored.' };
  return { ok: true, files };
}

function put(ctx: HostContext, id: number, skill: WireSkill, requests: AgentRequest[]): HostReply {
  const checked = checkSkill(skill);
  if (!checked.ok) return { type: 'error', id, code: checked.code, message: checked.message };
  const key = skillKey(skill);
  let record = ctx.mirror.record(ctx.caller, key);
  const agents: AgentOutcome[] = [];
  if (record !== null && (record.revision !== skill.revision || ctx.mirror.verifiedFiles(record) === null)) {
    agents.push(...removeSkill(ctx, record));
    record = null;
  }
  if (record === null) {
    const { files: wire, ...facts } = skill;
    record = { format: 1, key, caller: ctx.caller, ...facts, files: wire.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })), storedAt: ctx.now(), agents: [] };
    ctx.mirror.store(
      record,
      [...checked.files].map(([path, bytes]) => ({ path, bytes })),
    );
  }
  agents.push(...reconcile(ctx, record, requests, checked.files));
  return { type: 'stored', id, skill: refOf(skill), agents };
}

function status(ctx: HostContext, id: number): HostReply {
  const skills: HeldSkill[] = [];
  let size = 200;
  let truncated = false;
  for (const r of ctx.mirror.records(ctx.caller)) {
    const held: HeldSkill = { origin: r.origin, url: r.url, name: r.name, revision: r.revision, verification: r.verification, approvedAt: r.approvedAt, agents: r.agents };
    size += Buffer.byteLength(JSON.stringify(held)) + 1;
    if (size > MAX_MESSAGE_TO_BROWSER - 4096) {
      truncated = true;
      break;
    }
    skills.push(held);
  }
  return { type: 'status', id, skills, truncated };
}

function hello(ctx: HostContext, id: number): HostReply {
  const agents = AGENT_IDS.map((agent) => {
    const folder = agentRoot(ctx.places, agent);
    return { agent, folder, present: existsSync(dirname(folder)) };
  });
  return { type: 'hello', id, protocol: PROTOCOL_VERSION, version: HOST_VERSION, held: ctx.mirror.records(ctx.caller).length, agents };
}

/** Answers one checked request. */
export function handle(ctx: HostContext, request: HostRequest): HostReply {
  switch (request.type) {
    case 'hello':
      return hello(ctx, request.id);
    case 'status':
      return status(ctx, request.id);
    case 'sync':
      return withLock(ctx.mirror.root, () => {
        ctx.mirror.prepare(ctx.caller);
        return sync(ctx, request.id, request.skills);
      });
    case 'put':
      return withLock(ctx.mirror.root, () => {
        ctx.mirror.prepare(ctx.caller);
        return put(ctx, request.id, request.skill, request.agents);
      });
  }
}
