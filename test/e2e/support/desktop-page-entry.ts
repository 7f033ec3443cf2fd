// Bundled for an extension page by the desktop end-to-end tests: the extension's own connection
// manager and message plan (lib/desktop), driven with the browser's real runtime.connectNative.
import { DesktopLink, type LinkState } from '../../../lib/desktop/link';
import type { AgentId } from '../../../lib/desktop/protocol/limits';
import { type MirrorableSkill, planMirror } from '../../../lib/desktop/outbox';
import { decodeBase64Strict } from '../../../lib/verify/base64';

type WireMirrorable = Omit<MirrorableSkill, 'files'> & { files: { path: string; base64: string }[] };

interface Runtime {
  connectNative(name: string): unknown;
  lastError?: { message?: string };
}

function runtime(): Runtime {
  const g = globalThis as unknown as { browser?: { runtime: Runtime }; chrome?: { runtime: Runtime } };
  return (g.browser ?? g.chrome)?.runtime as Runtime;
}

/** Mirrors the skills with the agents and confirmations given, and resolves with the state the link settles in. */
function mirror(skills: WireMirrorable[], agents: AgentId[], confirmedUrls: string[]): Promise<LinkState> {
  const decoded: MirrorableSkill[] = skills.map((s) => ({ ...s, files: s.files.map((f) => ({ path: f.path, bytes: decodeBase64Strict(f.base64) ?? new Uint8Array(0) })) }));
  return new Promise((resolve) => {
    let done = false;
    const link: DesktopLink = new DesktopLink({
      connectNative: (name) => runtime().connectNative(name) as never,
      disconnectReason: (port) => (port as { error?: { message?: string } }).error?.message ?? runtime().lastError?.message ?? null,
      timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as number) },
      onState: (state) => {
        if (state.kind === 'working' || state.kind === 'off' || done) return;
        done = true;
        link.stop();
        resolve(state);
      },
    });
    link.mirror(() => planMirror(decoded, { agents, confirmed: (skill) => confirmedUrls.includes(skill.url) }));
  });
}

(globalThis as unknown as { skillpinDesktop: unknown }).skillpinDesktop = { mirror };
