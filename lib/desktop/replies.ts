// The extension's check of what the host program answers (docs/desktop.md): the host is a
// local program the user installed, but its answers still reach the options page, so each one is
// checked against the schema of its type and anything else is refused.
import { parseInput, text, z } from '../input';
import { isDesktopAgentId } from './protocol/agents';
import { type AgentId, isAgentId } from './protocol/limits';
import { isHttpOrigin } from '../origin';
import { AGENT_STATES, ERROR_CODES, type HostReply, VERIFICATIONS } from './protocol/wire';

const string = text(4096);
const id = z.int().check(z.nonnegative());
const agent = z.custom<AgentId>(isAgentId);
const ref = { origin: z.custom<string>(isHttpOrigin), url: string };
const outcome = z.object({ ...ref, agent, state: z.enum(AGENT_STATES), folder: z.nullable(string), message: z.nullable(string) });
const held = z.object({ ...ref, name: string, revision: string, verification: z.enum(VERIFICATIONS), approvedAt: id, agents: z.array(z.object({ agent, folder: string })) });
const errorCode = z.enum(ERROR_CODES);

const REPLY = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), id, protocol: id, version: string, held: id, agents: z.array(z.object({ agent, folder: string, present: z.boolean() })), found: z.optional(z.array(string)) }),
  z.object({ type: z.literal('synced'), id, missing: z.array(z.object(ref)), removed: z.array(z.object(ref)), agents: z.array(outcome) }),
  z.object({ type: z.literal('stored'), id, skill: z.object(ref), agents: z.array(outcome) }),
  z.object({ type: z.literal('status'), id, skills: z.array(held), truncated: z.boolean() }),
  z.object({ type: z.literal('error'), id: z.nullable(id), code: errorCode, message: string }),
]);

/** The reply as typed, or null when it is not one the protocol defines. */
export function parseHostReply(value: unknown): HostReply | null {
  const parsed = parseInput(REPLY, value);
  if (!parsed.ok) return null;
  const reply = parsed.value;
  if (reply.type !== 'hello') return reply;
  // A later program may know agents this extension does not: those are left out.
  return { ...reply, found: reply.found?.filter(isDesktopAgentId) };
}
