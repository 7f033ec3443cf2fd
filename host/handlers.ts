// The host's answer to each message (docs/desktop.md): hello, sync, put, status. Writes
// happen under the mirror's lock; a message that fails a check changes nothing.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { AGENT_IDS, type AgentId, MAX_MESSAGE_TO_BROWSER, PROTOCOL_VERSION } from '../lib/desktop/protocol/limits';
import type { AgentOutcome, AgentRequest, HeldSkill, HostReply, HostRequest, SkillRef, SyncEntry, WireSkill } from '../lib/desktop/protocol/wire';
import { skillKey, skillRevision } from '../lib/desktop/protocol/revision';
import { decodeBase64Strict } from '../lib/verify/base64';
import { lfNormalize } from '../lib/verify/digest';
import { agentRoot, agentsFound, sweepUnlisted } from './agents';
import { withLock } from './lock';
import { formerPartitions, type MirrorRecord, sha256Hex } from './mirror';
import { dropCopy, type HostContext, placeCopy } from './placement';
import { rejudge } from './rejudge';
import { HOST_VERSION } from './version';

export { HOST_VERSION };

const refOf = (r: SkillRef): SkillRef => ({ origin: r.origin, url: r.url });

/** Removes the record's copies for the agents `drop` picks, as the record lists them now. */
function dropCopies(ctx: HostContext, record: MirrorRecord, drop: (agent: AgentId) => boolean): AgentOutcome[] {
  return [...record.agents].filter((a) => drop(a.agent)).flatMap((a) => dropCopy(ctx, record, a.agent) ?? []);
}

/** Removes a skill from the mirror and every agent copy the host wrote of it. */
export function removeSkill(ctx: HostContext, record: MirrorRecord): AgentOutcome[] {
  const out = dropCopies(ctx, record, () => true);
  ctx.mirror.remove(record);
  return out;
}

/** Writes the copies asked for and removes the others; the record is rewritten when they or the skill's confirmation changed. */
function reconcile(ctx: HostContext, record: MirrorRecord, requests: AgentRequest[], files: Map<string, Uint8Array>, confirmed: string | null): AgentOutcome[] {
  const before = JSON.stringify([record.agents, record.confirmedRevision ?? null]);
  record.confirmedRevision = confirmed;
  const all = ctx.mirror.records();
  const out = requests.map((r) => placeCopy(ctx, record, r, files, all));
  out.push(...dropCopies(ctx, record, (agent) => !requests.some((r) => r.agent === agent)));
  if (JSON.stringify([record.agents, record.confirmedRevision]) !== before) ctx.mirror.rewrite(record);
  return out;
}

function sync(ctx: HostContext, id: number, entries: SyncEntry[]): HostReply {
  const agents: AgentOutcome[] = [];
  const staleRules = !ctx.mirror.judgedByThisVersion(ctx.partition);
  if (staleRules) agents.push(...rejudge(ctx, entries));
  const wanted = new Map(entries.map((e) => [skillKey(e), e]));
  const removed: SkillRef[] = [];
  const held = new Set<string>();
  for (const record of ctx.mirror.records(ctx.partition)) {
    const entry = wanted.get(record.key);
    const files = entry !== undefined && entry.revision === record.revision ? ctx.mirror.verifiedFiles(record) : null;
    if (entry === undefined || files === null) {
      agents.push(...removeSkill(ctx, record));
      if (entry === undefined) removed.push(refOf(record));
      continue;
    }
    held.add(record.key);
    agents.push(...reconcile(ctx, record, entry.agents, files, entry.confirmedRevision));
  }
  // The partitions whose copies this browser profile's sync answers for: its own, and the one it adopted.
  const own = new Set([ctx.partition, ...formerPartitions(ctx.mirror.records(ctx.partition))]);
  agents.push(...sweepUnlisted(ctx.places, own, ctx.mirror.records()));
  if (staleRules) ctx.mirror.markJudged(ctx.partition);
  const missing = [...wanted].filter(([key]) => !held.has(key)).map(([, entry]) => refOf(entry));
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
  if (skillRevision(skill) !== skill.revision) return { ok: false, code: 'revision-mismatch', message: 'The revision does not match the skill’s facts; nothing was stored.' };
  return { ok: true, files };
}

function put(ctx: HostContext, id: number, skill: WireSkill, requests: AgentRequest[], confirmed: string | null): HostReply {
  const checked = checkSkill(skill);
  if (!checked.ok) return { type: 'error', id, code: checked.code, message: checked.message };
  const key = skillKey(skill);
  let record = ctx.mirror.record(ctx.partition, key);
  const agents: AgentOutcome[] = [];
  if (record !== null && (record.revision !== skill.revision || ctx.mirror.verifiedFiles(record) === null)) {
    agents.push(...removeSkill(ctx, record));
    record = null;
  }
  if (record === null) {
    const { files: wire, ...facts } = skill;
    record = {
      format: 1,
      key,
      caller: ctx.caller,
      profile: ctx.profile,
      ...facts,
      files: wire.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })),
      storedAt: ctx.now(),
      agents: [],
      confirmedRevision: confirmed,
    };
    ctx.mirror.store(record, checked.files);
  }
  agents.push(...reconcile(ctx, record, requests, checked.files, confirmed));
  return { type: 'stored', id, skill: refOf(skill), agents };
}

function status(ctx: HostContext, id: number): HostReply {
  const skills: HeldSkill[] = [];
  let size = 200;
  let truncated = false;
  for (const r of ctx.mirror.records(ctx.partition)) {
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
  return { type: 'hello', id, protocol: PROTOCOL_VERSION, version: HOST_VERSION, held: ctx.mirror.records(ctx.partition).length, agents, found: agentsFound(ctx.places.home) };
}

/** Runs a write under the lock, after this profile's part of the mirror is ready (and, on its first message, the part it adopts). */
function writing(ctx: HostContext, id: number, fn: () => HostReply): HostReply {
  return withLock(ctx.mirror.root, () => {
    // uninstall-host holds the lock while it removes everything: a host that waited for it writes nothing.
    if (ctx.installed !== undefined && !ctx.installed()) return { type: 'error', id, code: 'not-installed', message: 'Skillpin’s desktop program was uninstalled; nothing was written.' };
    if (ctx.profile !== null) ctx.mirror.adoptLegacy(ctx.caller, ctx.profile);
    ctx.mirror.prepare(ctx.partition);
    return fn();
  });
}

/** Answers one checked request. */
export function handle(ctx: HostContext, request: HostRequest): HostReply {
  switch (request.type) {
    case 'hello':
      return hello(ctx, request.id);
    case 'status':
      return status(ctx, request.id);
    case 'sync':
      return writing(ctx, request.id, () => sync(ctx, request.id, request.skills));
    case 'put':
      return writing(ctx, request.id, () => put(ctx, request.id, request.skill, request.agents, request.confirmedRevision));
  }
}
