// `skillpin native-host` (docs/desktop.md): started by the browser with the caller as an
// argument, it reads framed messages on stdin and answers each on stdout. The caller must be one
// of the extension ids install-host wrote down; any other gets an error for every message and
// the mirror is not touched. Nothing but frames is ever written to stdout.
import { existsSync } from 'node:fs';
import { readJson, removeIfEmpty } from './atomic';
import { MAX_MESSAGE_TO_HOST } from '../lib/desktop/protocol/limits';
import { type HostReply, parseHostRequest } from '../lib/desktop/protocol/wire';
import { decodeJson, encodeFrame, FrameReader } from './framing';
import { handle } from './handlers';
import type { InstallRecord } from './install';
import { Mirror, partitionOf } from './mirror';
import { installFile, mirrorDir, type Places } from './places';
import type { HostContext } from './placement';

type InstalledIds = Pick<InstallRecord, 'chromeIds' | 'firefoxIds'>;

/** The extension ids the host was installed for; none when install-host never ran. */
export function installedIds(places: Places): InstalledIds {
  const v = readJson(installFile(places)) as Partial<InstalledIds> | null;
  const list = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
  return { chromeIds: list(v?.chromeIds), firefoxIds: list(v?.firefoxIds) };
}

/**
 * The caller from the arguments the browser passes: Chrome gives the origin
 * `chrome-extension://<id>/` (and on Windows a `--parent-window=` flag), Firefox the path of
 * the host manifest and then the add-on id. Null when neither shape is there.
 */
export function callerOf(args: readonly string[]): { browser: 'chrome'; id: string; caller: string } | { browser: 'firefox'; id: string; caller: string } | null {
  const chrome = args.find((a) => /^chrome-extension:\/\/[a-p]{32}\/$/.test(a));
  if (chrome !== undefined) return { browser: 'chrome', id: chrome.slice('chrome-extension://'.length, -1), caller: chrome };
  const rest = args.filter((a) => !a.startsWith('--'));
  if (rest.length === 2 && typeof rest[1] === 'string' && rest[1].length > 0 && rest[1].length <= 255) return { browser: 'firefox', id: rest[1], caller: rest[1] };
  return null;
}

export function callerAllowed(caller: ReturnType<typeof callerOf>, ids: InstalledIds): boolean {
  if (caller === null) return false;
  return caller.browser === 'chrome' ? ids.chromeIds.includes(caller.id) : ids.firefoxIds.includes(caller.id);
}

function errorReply(id: number | null, code: Extract<HostReply, { type: 'error' }>['code'], message: string): HostReply {
  return { type: 'error', id, code, message };
}

/** The host's context before the request names its profile, and whether the caller was allowed. */
export type AnswerContext = Pick<HostContext, 'caller' | 'places' | 'now' | 'installed'> & { allowed: boolean };

const GONE = 'Skillpin’s desktop program was uninstalled while it was running; nothing was written. Install it again to use desktop agents.';

/** Answers one frame's bytes. Exported for the tests that feed frames without a process. */
export function answer(bytes: Buffer, ctx: AnswerContext): HostReply {
  const json = decodeJson(bytes);
  if (!json.ok) return errorReply(null, 'malformed-json', 'The message is not UTF-8 JSON.');
  if (!ctx.allowed) return errorReply(null, 'caller-not-allowed', 'This host was not installed for the extension that started it; nothing was changed.');
  const parsed = parseHostRequest(json.value);
  if (!parsed.ok) return errorReply(parsed.id, parsed.code, parsed.message);
  const installed = ctx.installed ?? (() => true);
  if (!installed()) return errorReply(parsed.value.id, 'not-installed', GONE);
  const profile = parsed.value.profile;
  const hostCtx = { places: ctx.places, mirror: new Mirror(mirrorDir(ctx.places)), caller: ctx.caller, profile, partition: partitionOf(ctx.caller, profile), now: ctx.now, installed };
  try {
    const reply = handle(hostCtx, parsed.value);
    // After uninstall-host: the folders a waiting write may have made again, removed when empty.
    if (reply.type === 'error' && reply.code === 'not-installed') for (const dir of [mirrorDir(ctx.places), ctx.places.dataDir]) removeIfEmpty(dir);
    return reply;
  } catch (error) {
    const busy = (error as { code?: string }).code === 'busy';
    return errorReply(parsed.value.id, busy ? 'busy' : 'internal', error instanceof Error ? error.message : String(error));
  }
}

function write(reply: HostReply): void {
  const frame = encodeFrame(reply) ?? encodeFrame(errorReply(reply.id, 'internal', 'The answer was larger than the browser accepts.'));
  if (frame !== null) process.stdout.write(frame);
}

/** Runs the host until stdin ends. */
export function runNativeHost(args: readonly string[], places: Places): Promise<void> {
  const caller = callerOf(args);
  const allowed = callerAllowed(caller, installedIds(places));
  const reader = new FrameReader(MAX_MESSAGE_TO_HOST);
  const ctx: AnswerContext = { allowed, caller: caller?.caller ?? '', places, now: () => Date.now(), installed: () => existsSync(installFile(places)) };
  return new Promise((resolve) => {
    process.stdin.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        if (frame.kind === 'too-large') write(errorReply(null, 'message-too-large', `The message has ${frame.length} bytes; this host accepts at most ${MAX_MESSAGE_TO_HOST}.`));
        else write(answer(frame.bytes, ctx));
      }
    });
    process.stdin.on('end', () => resolve());
    process.stdin.on('error', () => resolve());
  });
}
