// The extension's check of what the host program answers (docs/desktop.md): the host is a
// local program the user installed, but its answers still reach the options page, so each one is
// read field by field and anything else is refused.
import { isJsonObject } from '../parse/common';
import { isDesktopAgentId } from './agents';
import { isAgentId } from './limits';
import { type AgentOutcome, type AgentState, type ErrorCode, type HeldSkill, type HostReply, isWebOrigin, type SkillRef, VERIFICATIONS, type Verification } from './protocol';

const AGENT_STATES: readonly AgentState[] = ['written', 'unchanged', 'removed', 'needs-confirmation', 'name-taken', 'copy-modified', 'failed'];
const ERROR_CODES: readonly ErrorCode[] = [
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
];

const isString = (v: unknown): v is string => typeof v === 'string' && v.length <= 4096;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function isRef(v: unknown): v is SkillRef {
  return isJsonObject(v) && isWebOrigin(v.origin) && isString(v.url);
}

function isOutcome(v: unknown): v is AgentOutcome {
  return isRef(v) && isJsonObject(v) && isAgentId(v.agent) && AGENT_STATES.includes(v.state as AgentState) && (v.folder === null || isString(v.folder)) && (v.message === null || isString(v.message));
}

function isHeld(v: unknown): v is HeldSkill {
  if (!isRef(v) || !isJsonObject(v)) return false;
  const agents = v.agents;
  return (
    isString(v.name) &&
    isString(v.revision) &&
    VERIFICATIONS.includes(v.verification as Verification) &&
    isCount(v.approvedAt) &&
    Array.isArray(agents) &&
    agents.every((a) => isJsonObject(a) && isAgentId(a.agent) && isString(a.folder))
  );
}

const listOf = <T>(v: unknown, is: (x: unknown) => x is T): v is T[] => Array.isArray(v) && v.every(is);

/** The reply as typed, or null when it is not one the protocol defines. */
export function parseHostReply(value: unknown): HostReply | null {
  if (!isJsonObject(value)) return null;
  const id = value.id;
  if (value.type === 'error') {
    const okId = id === null || isCount(id);
    return okId && ERROR_CODES.includes(value.code as ErrorCode) && isString(value.message) ? (value as HostReply) : null;
  }
  if (!isCount(id)) return null;
  switch (value.type) {
    case 'hello':
      return isCount(value.protocol) &&
        isString(value.version) &&
        isCount(value.held) &&
        listOf(value.agents, (a): a is { agent: never } => isJsonObject(a) && isAgentId(a.agent) && isString(a.folder) && typeof a.present === 'boolean') &&
        (value.found === undefined || listOf(value.found, isString))
        ? // A later program may know agents this extension does not: those are left out.
          ({ ...value, found: value.found === undefined ? undefined : value.found.filter(isDesktopAgentId) } as HostReply)
        : null;
    case 'synced':
      return listOf(value.missing, isRef) && listOf(value.removed, isRef) && listOf(value.agents, isOutcome) ? (value as HostReply) : null;
    case 'stored':
      return isRef(value.skill) && listOf(value.agents, isOutcome) ? (value as HostReply) : null;
    case 'status':
      return listOf(value.skills, isHeld) && typeof value.truncated === 'boolean' ? (value as HostReply) : null;
    default:
      return null;
  }
}
