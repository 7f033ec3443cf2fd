// The desktop mirror protocol (docs/desktop.md): the messages the extension and the host
// program exchange over native messaging, and the one check of each. Both sides import this
// module, so a field is read the same way at both ends; nothing here touches I/O.
import { isJsonObject } from '../../parse/common';
import { FINGERPRINT, HEX64, lazy, parseInput, text, z } from '../../input';
import { isHttpOrigin, isHttpUrl, urlOf } from '../../origin';
import { type AgentId, isAgentId, MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL, MAX_SKILLS_IN_SYNC, MAX_STRING_LENGTH, PROTOCOL_VERSION } from './limits';
import { checkSkillPaths } from './paths';
import { isDesktopAgentId } from './agents';

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

export const VERIFICATIONS = ['signed', 'digest-only', 'unverified'] as const satisfies readonly Verification[];

/**
 * One agent folder the user picked for a skill. A skill that grants tools or carries scripts
 * needs `confirmedRevision` equal to its revision: the user confirmed this content for this agent.
 */
export type AgentRequest = z.infer<ReturnType<typeof requestSchemas>['agentRequest']>;

/** A skill the sync names: its identity, revision, the agent folders picked, and its confirmed revision (`confirmed` below). */
export type SyncEntry = z.infer<ReturnType<typeof requestSchemas>['syncEntry']>;

/** A skill as the extension hands it over: its approved files and the facts they were approved on (the fields as `skill` below checks them). */
export type WireSkill = z.infer<ReturnType<typeof requestSchemas>['skill']>;

export type WireFile = WireSkill['files'][number];

/** The facts a skill was approved on: what the mirror records beside its files. */
export type SkillFacts = Omit<WireSkill, 'revision' | 'files'>;

/** A checked request (the fields as REQUESTS below checks them; `profile` and a confirmed revision null when absent). */
export type HostRequest = { [T in keyof Requests]: z.infer<Requests[T]> }[keyof Requests];
type Requests = ReturnType<typeof requestSchemas>['REQUESTS'];

export const PROFILE_ID = /^[0-9a-f]{32}$/;

export const AGENT_STATES = ['written', 'unchanged', 'removed', 'needs-confirmation', 'name-taken', 'copy-modified', 'failed'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export const ERROR_CODES = [
  'message-too-large',
  'malformed-json',
  'unknown-type',
  'invalid-message',
  'unsupported-protocol',
  'caller-not-allowed',
  'digest-mismatch',
  'revision-mismatch',
  'busy',
  'not-installed',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** A refused request: the error code and message of the reply, and the request's id when it had one. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string; id: number | null };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The program checks origins as the extension does (lib/origin.ts); host/ reaches it through the protocol. */
export { isHttpOrigin };

function isWebUrl(value: string): boolean {
  const u = urlOf(value);
  return u !== null && isHttpUrl(u) && u.href === value;
}

/** The byte length a strict base64 string decodes to. */
export function base64Length(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - pad;
}

/** What the checks of both directions share: a message id and an agent. The extension reads only replies, so it never builds the request schemas. */
const sharedSchemas = lazy(() => ({
  ID: z.int('is not a whole number').check(z.nonnegative('is not a whole number')),
  agentId: z.custom<AgentId>(isAgentId, 'is not a known agent'),
}));

const requestSchemas = lazy(() => {
  // Each problem is worded after the field it is found at: "skill.files[0].sha256 is not 64 lowercase hex digits".
  const STRING = `is not a string of 1–${MAX_STRING_LENGTH} characters`;
  const str = z.string(STRING).check(
    z.minLength(1, STRING),
    z.maxLength(MAX_STRING_LENGTH, STRING),
    z.refine<string>((v) => !CONTROL.test(v), 'holds a control character'),
  );
  const HEX = 'is not 64 lowercase hex digits';
  const hex = z.string(HEX).check(z.regex(HEX64, HEX));

  function whole(max = Number.MAX_SAFE_INTEGER) {
    const message = `is not a whole number from 0 to ${max}`;
    return z.int(message).check(z.gte(0, message), z.lte(max, message));
  }

  function list<T extends z.ZodMiniType>(item: T, min: number, max: number) {
    const message = `is not a list of ${min}–${max} items`;
    return z.array(item, message).check(z.minLength(min, message), z.maxLength(max, message));
  }

  /** An object with exactly these fields (an optional one may be absent). */
  function exactly<S extends Record<string, z.ZodMiniType>>(shape: S) {
    return z.strictObject(shape, {
      error: (issue) => (issue.code === 'unrecognized_keys' ? `has an unknown field ${JSON.stringify(String(issue.keys[0]).slice(0, 40))}` : 'is not an object'),
    });
  }

  /** A check that no two items of a list share `key`; `twice` words the second one. */
  function once<T>(key: (item: T) => string, twice: (item: T) => string) {
    return (ctx: z.core.ParsePayload<T[]>): void => {
      const seen = new Set<string>();
      for (const item of ctx.value) {
        if (seen.has(key(item))) {
          ctx.issues.push({ code: 'custom', message: twice(item), input: ctx.value });
          return;
        }
        seen.add(key(item));
      }
    };
  }

  const ref = {
    origin: str.check(z.refine<string>(isHttpOrigin, 'is not an http(s) origin')),
    url: str.check(z.refine<string>(isWebUrl, 'is not an http(s) URL in its normal form')),
  };
  const { ID, agentId } = sharedSchemas();
  const PROFILE = 'is not 32 lowercase hex digits';
  /**
   * Every request may carry `profile`: the browser profile's id (32 lowercase hex digits, made once
   * and kept in the profile's storage), so each profile keeps its own part of the mirror. Null when
   * the message has none (an extension from before profiles had ids).
   */
  const profile = z.pipe(
    z.optional(z.string(PROFILE).check(z.regex(PROFILE_ID, PROFILE))),
    z.transform((id) => id ?? null),
  );
  /**
   * The revision the user confirmed for the skill as a whole (one confirmation at approval covers
   * every place): the MCP server serves a skill that grants tools or carries scripts only with it.
   * Null when there is none (or none is needed); absent from an older extension's messages, and
   * then null once read.
   */
  const confirmed = z.pipe(
    z.nullish(hex),
    z.transform((revision) => revision ?? null),
  );

  const agentRequest = exactly({ agent: agentId, confirmedRevision: z.nullable(hex) });
  const agents = list(agentRequest, 0, 8).check(
    once(
      (a: AgentRequest) => a.agent,
      (a) => `names ${a.agent} twice`,
    ),
  );

  const file = exactly({
    path: z.string('is not a string'),
    /** Lowercase hex SHA-256 of the bytes. */
    sha256: hex,
    size: whole(MAX_BYTES_PER_SKILL),
    /** Standard base64 of the bytes. */
    data: z.string('is not standard base64').check(z.regex(BASE64, 'is not standard base64')),
  }).check((ctx) => {
    const f = ctx.value;
    if (base64Length(f.data) !== f.size) ctx.issues.push({ code: 'custom', message: `does not hold ${f.size} bytes`, path: ['data'], input: f });
  });

  const FINGERPRINT_TEXT = 'is not a SHA256: key fingerprint';
  const skill = exactly({
    ...ref,
    name: str,
    type: z.enum(['skill-md', 'archive'], 'is neither skill-md nor archive'),
    /** SHA-256 (hex) of SKILL.md after CR LF → LF, and of its raw bytes. */
    digestLf: hex,
    digestRaw: hex,
    /** SHA-256 (hex) of the archive the files came from; null for a plain SKILL.md. */
    archiveSha256: z.nullable(hex),
    keyFingerprint: z.nullable(z.string(FINGERPRINT_TEXT).check(z.regex(FINGERPRINT, FINGERPRINT_TEXT))),
    verification: z.enum(VERIFICATIONS, 'is not signed, digest-only or unverified'),
    /** When the user approved it (ms since the epoch). */
    approvedAt: whole(),
    /** skillRevision() of the facts and the files' paths, digests and sizes. */
    revision: hex,
    files: list(file, 1, MAX_FILES_PER_SKILL),
  }).check((ctx) => {
    const s = ctx.value;
    const problem = (path: string, message: string) => ctx.issues.push({ code: 'custom', message, path: [path], input: s });
    if ((s.type === 'archive') !== (s.archiveSha256 !== null)) problem('archiveSha256', 'is given exactly when skill.type is archive');
    if (s.verification === 'signed' && s.keyFingerprint === null) problem('keyFingerprint', 'is needed for a signed skill');
    const paths = checkSkillPaths(s.files.map((f) => f.path));
    if (!paths.ok) problem('files', `are refused: ${paths.message}`);
    if (s.type === 'skill-md' && s.files.length !== 1) problem('files', 'are more than the one file of a skill-md skill, SKILL.md');
    const total = s.files.reduce((n, f) => n + f.size, 0);
    if (total > MAX_BYTES_PER_SKILL) problem('files', `hold ${total} bytes, more than ${MAX_BYTES_PER_SKILL}`);
  });

  const syncEntry = exactly({ ...ref, revision: hex, agents, confirmedRevision: confirmed });

  /** The fields of each request type (a hello's protocol is compared on its own: it has an error code of its own). */
  const REQUESTS = {
    hello: exactly({ type: z.literal('hello'), id: ID, profile, protocol: z.unknown() }),
    sync: exactly({
      type: z.literal('sync'),
      id: ID,
      profile,
      skills: list(syncEntry, 0, MAX_SKILLS_IN_SYNC).check(
        once(
          (e: SkillRef) => `${e.origin} ${e.url}`,
          (e) => `names ${e.url} twice`,
        ),
      ),
    }),
    put: exactly({ type: z.literal('put'), id: ID, profile, skill, agents, confirmedRevision: confirmed }),
    status: exactly({ type: z.literal('status'), id: ID, profile }),
  };
  return { ID, agentRequest, syncEntry, skill, REQUESTS };
});

/** Checks a message the host received. Never throws; a refusal names the first problem found. */
export function parseHostRequest(value: unknown): Parsed<HostRequest> {
  if (!isJsonObject(value)) return { ok: false, code: 'invalid-message', message: 'The message is not a JSON object.', id: null };
  const { ID, REQUESTS } = requestSchemas();
  const parsedId = parseInput(ID, value.id);
  const id = parsedId.ok ? parsedId.value : null;
  const type = value.type;
  if (type !== 'hello' && type !== 'sync' && type !== 'put' && type !== 'status') {
    return { ok: false, code: 'unknown-type', message: `Unknown message type ${JSON.stringify(String(type).slice(0, 40))}.`, id };
  }
  const parsed = parseInput(REQUESTS[type], value);
  if (!parsed.ok) {
    const [first] = parsed.errors;
    return { ok: false, code: 'invalid-message', message: `The ${type} message is not valid: ${first?.path || type} ${first?.message}.`, id };
  }
  const request = parsed.value;
  if (request.type === 'hello' && request.protocol !== PROTOCOL_VERSION) {
    return { ok: false, code: 'unsupported-protocol', message: `This host speaks protocol ${PROTOCOL_VERSION}, not ${JSON.stringify(request.protocol)}.`, id };
  }
  return { ok: true, value: request };
}

const replySchemas = lazy(() => {
  const { ID, agentId } = sharedSchemas();
  // The extension's check of what the host program answers: the host is a local program the user
  // installed, but its answers still reach the options page, so each one is checked against the
  // schema of its type and anything else is refused. The reply types are what this check gives.
  const answerText = text(4096);
  const answerRef = { origin: z.custom<string>(isHttpOrigin), url: answerText };
  // An outcome's folder: the folder name under the agent's skills folder, when there is one.
  const agentOutcome = z.object({ ...answerRef, agent: agentId, state: z.enum(AGENT_STATES), folder: z.nullable(answerText), message: z.nullable(answerText) });
  const heldSkill = z.object({
    ...answerRef,
    name: answerText,
    revision: answerText,
    verification: z.enum(VERIFICATIONS),
    approvedAt: ID,
    agents: z.array(z.object({ agent: agentId, folder: answerText })),
  });
  // `found`: the desktop agents whose own folder exists in the home (host 1.2.0 and later).
  const folders = z.array(z.object({ agent: agentId, folder: answerText, present: z.boolean() }));
  const hello = z.object({ type: z.literal('hello'), id: ID, protocol: ID, version: answerText, held: ID, agents: folders, found: z.optional(z.array(answerText)) });

  const REPLIES = z.discriminatedUnion('type', [
    // A later program may know agents this extension does not: those are left out.
    z.pipe(
      hello,
      z.transform((h) => ({ ...h, found: h.found?.filter(isDesktopAgentId) })),
    ),
    z.object({ type: z.literal('synced'), id: ID, missing: z.array(z.object(answerRef)), removed: z.array(z.object(answerRef)), agents: z.array(agentOutcome) }),
    z.object({ type: z.literal('stored'), id: ID, skill: z.object(answerRef), agents: z.array(agentOutcome) }),
    z.object({ type: z.literal('status'), id: ID, skills: z.array(heldSkill), truncated: z.boolean() }),
    z.object({ type: z.literal('error'), id: z.nullable(ID), code: z.enum(ERROR_CODES), message: answerText }),
  ]);
  return { agentOutcome, heldSkill, REPLIES };
});

type Replies = ReturnType<typeof replySchemas>;
export type AgentOutcome = z.infer<Replies['agentOutcome']>;
export type HeldSkill = z.infer<Replies['heldSkill']>;
export type HostReply = z.infer<Replies['REPLIES']>;

/** The reply as typed, or null when it is not one the protocol defines. */
export function parseHostReply(value: unknown): HostReply | null {
  const parsed = parseInput(replySchemas().REPLIES, value);
  return parsed.ok ? parsed.value : null;
}
