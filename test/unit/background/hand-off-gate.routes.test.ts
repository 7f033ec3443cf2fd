// Every path by which a skill's content leaves the extension passes the one hand-off gate
// (PRODUCT.md §10). The paths come from their definitions: the request types whose definition in
// lib/messages/ names a `handsOff` target, the menu kinds of lib/background/menus.ts
// (MENU_HAND_OFFS) and the background's own paths (lib/background/desktop-mirror.ts
// DESKTOP_HAND_OFFS). Each has a driver below that goes through the real service (a message, a
// menu click, the background's desktop mirror over a port to the real host code), and the Record
// type makes a new path without a driver fail to compile. Each driver is shown to deliver with no
// rule in force (so the test cannot pass by delivering nothing), then to deliver nothing under
// every rule of the gate. For the desktop mirror, delivering is standing: both skills are in the
// mirror before each rule, and "nothing" means the rule took the skill out of it.
import { readFileSync } from 'node:fs';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BackgroundHandOff, DESKTOP_HAND_OFFS } from '../../../lib/background/desktop-mirror';
import { insertItemId, MENU_HAND_OFFS, type MenuKind } from '../../../lib/background/menus';
import type { BackgroundService } from '../../../lib/background/service';
import { messageTable, type ContextResult, type HandOffKind, type RequestType, type SkillExportResult } from '../../../lib/messages';
import { openTrustStore } from '../../../lib/store/idb-store';
import type { OriginReport, Settings } from '../../../lib/types';
import { startServer, type TestServer } from '../../support/server';
import { sourceFiles } from '../../support/source-tree';
import { confirmKeys } from '../../support/confirm';
import { buildSite, keyPair, skillText } from '../../support/signed-sites';
import { FakeNative } from './fake-native';
import { HANG, RulesPlatform } from './fake-platform';
import { OPTIONS_PAGE, POPUP, startService } from './service-harness';

const K = keyPair(71);
const OTHER = keyPair(72);
const PAGE_TAB = 4;
const CHAT_TAB = 9;
const CHAT = 'https://chatgpt.com';

/** The request types whose definition says they hand a skill's content out. */
type HandOffMessage = { [T in RequestType]: ReturnType<typeof messageTable>[T]['handsOff'] extends null ? never : T }[RequestType];
type HandOffPath = HandOffMessage | `menu:${MenuKind}` | `background:${BackgroundHandOff}`;

interface Env {
  server: TestServer;
  origin: string;
  platform: RulesPlatform;
  /** The desktop program's side: the real host's message handling over a temporary mirror. */
  native: FakeNative;
  service: BackgroundService;
  factory: IDBFactory;
  name: string;
  ask<T>(msg: Record<string, unknown>, sender?: object): Promise<T>;
  /** The page tab and the chat tab are private (the private-window rule sets it). */
  incognito: boolean;
  skill: { alpha: string; beta: string };
  /** The SKILL.md each skill's site publishes now. */
  texts: { alpha: string; beta: string };
}

interface Outcome {
  /** Whether the skill's content left: a context answered, a text copied or inserted, a ZIP made. */
  delivered: boolean;
  /** The refusal code, where the path answers one. */
  error?: string;
}

interface Driver {
  target: HandOffKind;
  deliver(env: Env, url: string): Promise<Outcome>;
}

/** Whether any text the platform received carries this skill's context block. */
const carries = (texts: readonly string[], url: string): boolean => texts.some((t) => t.includes(`URL: ${url}`));

const DRIVERS: Record<HandOffPath, Driver> = {
  'skillpin:skill-context': {
    target: messageTable()['skillpin:skill-context'].handsOff,
    deliver: async (env, url) => {
      const r = await env.ask<ContextResult>({ type: 'skillpin:skill-context', origin: env.origin, url });
      return r.ok ? { delivered: carries([r.context], url) } : { delivered: false, error: r.error };
    },
  },
  'skillpin:insert': {
    target: messageTable()['skillpin:insert'].handsOff,
    deliver: async (env, url) => {
      await env.ask({ type: 'skillpin:insert', tabId: CHAT_TAB, chatOrigin: CHAT, origin: env.origin, url });
      return { delivered: carries([...env.platform.inserts.map((i) => i.text), ...env.platform.copies], url) };
    },
  },
  'skillpin:skill-export': {
    target: messageTable()['skillpin:skill-export'].handsOff,
    deliver: async (env, url) => {
      const r = await env.ask<SkillExportResult>({ type: 'skillpin:skill-export', origin: env.origin, url });
      return r.ok ? { delivered: r.zipBase64.length > 0 } : { delivered: false, error: r.error };
    },
  },
  'menu:copy': {
    target: MENU_HAND_OFFS.copy,
    deliver: async (env, url) => {
      await env.service.onMenuClick('skillpin-copy', { id: PAGE_TAB, url: `${env.origin}/docs`, incognito: env.incognito });
      return { delivered: carries(env.platform.copies, url) };
    },
  },
  'menu:insert': {
    target: MENU_HAND_OFFS.insert,
    deliver: async (env, url) => {
      await env.service.onMenuClick(insertItemId(env.origin, url), { id: CHAT_TAB, url: `${CHAT}/c/1`, incognito: env.incognito }, 0);
      return { delivered: carries([...env.platform.inserts.map((i) => i.text), ...env.platform.copies], url) };
    },
  },
  // The mirror runs after every change by itself; the check makes sure a run follows a rule that
  // changed nothing the background hears of (bytes swapped in the store).
  'background:mirror': {
    target: DESKTOP_HAND_OFFS.mirror,
    deliver: async (env, url) => {
      await env.ask({ type: 'skillpin:desktop-check' }, OPTIONS_PAGE);
      await env.service.idle();
      const files = env.native.mirrored().get(url);
      return { delivered: files !== undefined && carriesSkill(files.get('SKILL.md'), url, env) };
    },
  },
};

/** The mirrored SKILL.md is the one the site published for that skill (alpha's or beta's text). */
function carriesSkill(bytes: Buffer | undefined, url: string, env: Env): boolean {
  const name = url === env.skill.alpha ? 'alpha' : 'beta';
  return bytes !== undefined && bytes.toString('utf8') === env.texts[name];
}

interface Rule {
  /** The refusal code a path that answers one gives. */
  code: string;
  /** The skill the rule is about: alpha is signed, beta is not. */
  skill: 'alpha' | 'beta';
  /** The targets it applies to (the target rule is about chat frames only). */
  targets: readonly HandOffKind[];
  apply(env: Env): Promise<void>;
}

const ALL: readonly HandOffKind[] = ['clipboard', 'chat', 'download', 'desktop'];
/** The private-window rule is about a request made from, or to, a tab of a private window: the mirror is neither. */
const WINDOWED: readonly HandOffKind[] = ['clipboard', 'chat', 'download'];

async function settings(env: Env, changes: Partial<Settings>): Promise<void> {
  expect(await env.ask({ type: 'skillpin:settings-update', changes }, OPTIONS_PAGE)).toMatchObject({ ok: true });
}

async function policy(env: Env, managed: unknown): Promise<void> {
  env.platform.managed = managed;
  await env.service.onManagedChanged();
}

async function reprobe(env: Env): Promise<OriginReport> {
  const r = await env.ask<OriginReport>({ type: 'skillpin:probe', origin: env.origin });
  expect(r.state).toBe('done');
  return r;
}

const RULES: Record<string, Rule> = {
  'the approval withdrawn': {
    code: 'not-approved',
    skill: 'alpha',
    targets: ALL,
    apply: async (env) => {
      await env.ask({ type: 'skillpin:revoke', origin: env.origin, url: env.skill.alpha });
    },
  },
  // A changed skill's approval is suspended: the gate answers that it is not approved (now).
  'the content changed since approval': {
    code: 'not-approved',
    skill: 'alpha',
    targets: ALL,
    apply: async (env) => {
      env.server.options.files = buildSite({
        skills: [
          { name: 'alpha', text: skillText('alpha', 'Now do something else.') },
          { name: 'beta', signature: 'none' },
        ],
        key: K,
      });
      expect((await reprobe(env)).skills.find((s) => s.url === env.skill.alpha)?.status).toBe('content-changed');
    },
  },
  'the publisher key changed': {
    code: 'not-approved',
    skill: 'alpha',
    targets: ALL,
    apply: async (env) => {
      env.server.options.files = buildSite({ skills: [{ name: 'alpha' }, { name: 'beta', signature: 'none' }], key: OTHER });
      expect((await reprobe(env)).skills.find((s) => s.url === env.skill.alpha)?.status).toBe('key-changed');
    },
  },
  'requireSignedSkills, for an unsigned skill': { code: 'policy-requires-signed', skill: 'beta', targets: ALL, apply: (env) => policy(env, { requireSignedSkills: true }) },
  'the organisation deny list': { code: 'site-excluded', skill: 'alpha', targets: ALL, apply: (env) => policy(env, { denyList: ['127.0.0.1'] }) },
  'the user deny list': { code: 'site-excluded', skill: 'alpha', targets: ALL, apply: (env) => settings(env, { denyList: [env.origin] }) },
  'allow-listed sites only, by the organisation': {
    code: 'site-excluded',
    skill: 'alpha',
    targets: ALL,
    apply: (env) => policy(env, { allowListOnly: true, allowList: ['https://elsewhere.example'] }),
  },
  'a private window': {
    code: 'private-window',
    skill: 'alpha',
    targets: WINDOWED,
    apply: async (env) => {
      env.incognito = true;
      env.platform.tabs = [
        { id: PAGE_TAB, url: `${env.origin}/docs`, incognito: true },
        { id: CHAT_TAB, url: `${CHAT}/c/1`, incognito: true },
      ];
    },
  },
  "the organisation's policy not known yet": {
    code: 'policy-pending',
    skill: 'alpha',
    targets: ALL,
    apply: async (env) => {
      env.platform.session.clear();
      await policy(env, HANG);
    },
  },
  'stored bytes that no longer hash to the approved digest': {
    code: 'bytes-changed',
    skill: 'alpha',
    targets: ALL,
    apply: async (env) => {
      const store = await openTrustStore({ name: env.name, indexedDB: env.factory });
      const approval = await store.getApproval(env.origin, env.skill.alpha);
      const stored = approval ? await store.getSkill(env.origin, env.skill.alpha, approval.digestLf) : null;
      if (!stored) throw new Error('nothing stored');
      await store.putSkill({ ...stored, bytes: new TextEncoder().encode(skillText('alpha', 'Swapped on disk.')) });
      store.close();
    },
  },
  // A key the administrator pins later binds the approval at once, not at the next probe (no probe here).
  'a key the organisation pins after the approval': {
    code: 'policy-key',
    skill: 'alpha',
    targets: ALL,
    apply: (env) => policy(env, { pinnedKeys: { [env.origin]: OTHER.b64 } }),
  },
  'a chat frame that shows another site than the one offered': {
    code: 'not-a-chat',
    skill: 'alpha',
    targets: ['chat'],
    apply: async (env) => {
      env.platform.show(CHAT_TAB, 'https://evil.example/');
    },
  },
};

let env: Env;

beforeEach(async () => {
  const server = await startServer({ files: buildSite({ skills: [{ name: 'alpha' }, { name: 'beta', signature: 'none' }], key: K }) });
  const platform = new RulesPlatform();
  const native = new FakeNative();
  platform.native = native;
  platform.show(CHAT_TAB, `${CHAT}/c/1`);
  const factory = new IDBFactory();
  const name = 'hand-off-paths';
  const service = await startService({ platform, name, indexedDB: factory, policyWaitMs: 30 });
  const ask = <T>(msg: Record<string, unknown>, sender: object = POPUP) => service.handleMessage(msg, sender) as Promise<T>;
  const skill = { alpha: `${server.origin}/skills/alpha/SKILL.md`, beta: `${server.origin}/skills/beta/SKILL.md` };
  env = { server, origin: server.origin, platform, native, service, factory, name, ask, incognito: false, skill, texts: { alpha: skillText('alpha'), beta: skillText('beta') } };
  const report = await ask<OriginReport>({ type: 'skillpin:probe', origin: server.origin });
  for (const url of [skill.alpha, skill.beta]) {
    const s = report.skills.find((k) => k.url === url);
    if (!s?.actual) throw new Error(`${url} did not verify`);
    expect(await ask({ type: 'skillpin:approve', origin: server.origin, url, digestLf: s.actual.lf, confirmUnverified: false, confirmCrossOrigin: false })).toMatchObject({ ok: true });
  }
  // Desktop agents on, with one agent folder: both skills are in the mirror before any rule applies.
  expect(await ask({ type: 'skillpin:settings-update', changes: { desktopMirror: true, desktopAgents: ['claude-code'] } }, OPTIONS_PAGE)).toMatchObject({ ok: true });
  await service.idle();
  expect([...native.mirrored().keys()].sort()).toEqual([skill.alpha, skill.beta].sort());
});

afterEach(async () => {
  await env.server.close();
  env.native.close();
});

describe('the hand-off gate: every path that hands content out', () => {
  it('every request type that hands content out, and every menu kind, has a driver', () => {
    const fromMessages = (Object.keys(messageTable()) as RequestType[]).filter((t) => messageTable()[t].handsOff !== null);
    const fromMenus = Object.keys(MENU_HAND_OFFS).map((k) => `menu:${k}`);
    const fromBackground = Object.keys(DESKTOP_HAND_OFFS).map((k) => `background:${k}`);
    expect(Object.keys(DRIVERS).sort()).toEqual([...fromMessages, ...fromMenus, ...fromBackground].sort());
    for (const [path, driver] of Object.entries(DRIVERS)) {
      const declared = path.startsWith('menu:')
        ? MENU_HAND_OFFS[path.slice(5) as MenuKind]
        : path.startsWith('background:')
          ? DESKTOP_HAND_OFFS[path.slice(11) as BackgroundHandOff]
          : messageTable()[path as HandOffMessage].handsOff;
      expect(driver.target, path).toBe(declared);
    }
  });

  it('only the modules that take released bytes build a skill context, an export or the desktop mirror', () => {
    const defined: Record<string, string> = {
      buildSkillContext: 'lib/skill-context/block.ts',
      exportSkill: 'lib/export/export-skill.ts',
      mirrorableSkills: 'lib/background/desktop-mirror.ts',
      planMirror: 'lib/desktop/outbox.ts',
    };
    const users = (name: string) => sourceFiles(['lib', 'entrypoints', 'components']).filter((f) => new RegExp(`\\b${name}\\s*\\(`).test(readFileSync(f, 'utf8')) && f !== defined[name]);
    expect(users('buildSkillContext')).toEqual(['lib/background/hand-off-routes.ts']);
    expect(users('exportSkill')).toEqual(['lib/background/skill-export.ts']);
    // The mirror's skills come from mirrorableSkills alone, which takes them from release().
    expect(users('mirrorableSkills')).toEqual(['lib/background/desktop-sync.ts']);
    expect(users('planMirror')).toEqual(['lib/background/desktop-sync.ts']);
    expect(readFileSync('lib/background/desktop-sync.ts', 'utf8')).toMatch(/planMirror\(found\.skills,/);
    for (const file of ['lib/background/hand-off-routes.ts', 'lib/background/skill-export.ts', 'lib/background/desktop-mirror.ts']) expect(readFileSync(file, 'utf8')).toMatch(/\brelease\(worker,/);
  });

  for (const [path, driver] of Object.entries(DRIVERS)) {
    describe(path, () => {
      it('delivers an approved, current skill when no rule stands in the way', async () => {
        expect((await driver.deliver(env, env.skill.alpha)).delivered).toBe(true);
        expect((await driver.deliver(env, env.skill.beta)).delivered).toBe(true);
      });
      for (const [name, rule] of Object.entries(RULES)) {
        if (!rule.targets.includes(driver.target)) continue;
        it(`delivers nothing under ${name}`, async () => {
          await rule.apply(env);
          env.platform.inserts = [];
          env.platform.copies = [];
          const out = await driver.deliver(env, env.skill[rule.skill]);
          expect(out.delivered).toBe(false);
          if (out.error !== undefined) expect(out.error).toBe(rule.code);
        });
      }
    });
  }
});

/** Alpha's SKILL.md with a command that runs when it is loaded (acts on its own) or a tool grant (can act). */
const ACTING = `---\nname: alpha\ndescription: The alpha skill.\n---\n\n# alpha\n\nThe date: !\`date\`\n`;
const GRANTING = `---\nname: alpha\ndescription: The alpha skill.\nallowed-tools: Bash(*)\n---\n\n# alpha\n\nUse this skill to work with the site.\n`;

/** Publishes this text for alpha, checks the site again and approves it, confirming `confirm` of its findings. */
async function republishAlpha(text: string, confirmed: 'none' | 'all'): Promise<string[]> {
  env.server.options.files = buildSite({
    skills: [
      { name: 'alpha', text },
      { name: 'beta', signature: 'none' },
    ],
    key: K,
  });
  env.texts.alpha = text;
  const report = await reprobe(env);
  const alpha = report.skills.find((s) => s.url === env.skill.alpha);
  if (!alpha?.actual) throw new Error('alpha did not verify');
  const keys = confirmKeys(alpha);
  expect(keys.length).toBeGreaterThan(0);
  const confirmFindings = confirmed === 'all' ? keys : [];
  expect(
    await env.ask({ type: 'skillpin:approve', origin: env.origin, url: env.skill.alpha, digestLf: alpha.actual.lf, confirmUnverified: false, confirmCrossOrigin: false, confirmFindings }),
  ).toEqual({ ok: true });
  return keys;
}

async function confirmAlpha(keys: string[]): Promise<void> {
  const approval = (await env.ask<OriginReport>({ type: 'skillpin:report', origin: env.origin })).skills.find((s) => s.url === env.skill.alpha)?.approval.approval;
  expect(await env.ask({ type: 'skillpin:confirm-findings', origin: env.origin, url: env.skill.alpha, digestLf: approval?.digestLf, confirmFindings: keys })).toEqual({ ok: true });
}

const clear = (): void => {
  env.platform.inserts = [];
  env.platform.copies = [];
};

describe('the hand-off gate: what a skill can do is confirmed before it leaves (PRODUCT.md §6.1)', () => {
  for (const [path, driver] of Object.entries(DRIVERS)) {
    it(`${path}: a skill that acts on its own, unconfirmed, delivers nothing; confirmed, it is delivered`, async () => {
      const keys = await republishAlpha(ACTING, 'none');
      clear();
      const refused = await driver.deliver(env, env.skill.alpha);
      expect(refused.delivered).toBe(false);
      if (refused.error !== undefined) expect(refused.error).toBe('needs-confirmation');
      await confirmAlpha(keys);
      clear();
      expect((await driver.deliver(env, env.skill.alpha)).delivered).toBe(true);
    });

    const computer = driver.target === 'download' || driver.target === 'desktop';
    it(`${path}: a skill that can act (a tool grant), unconfirmed, ${computer ? 'delivers nothing' : 'is delivered to a chat'}`, async () => {
      const keys = await republishAlpha(GRANTING, 'none');
      clear();
      const out = await driver.deliver(env, env.skill.alpha);
      expect(out.delivered).toBe(!computer);
      if (computer && out.error !== undefined) expect(out.error).toBe('needs-confirmation');
      await confirmAlpha(keys);
      clear();
      expect((await driver.deliver(env, env.skill.alpha)).delivered).toBe(true);
    });

    it(`${path}: an approval that recorded no review (made before it, or imported) is judged again by the rules in force, with no request`, async () => {
      await republishAlpha(ACTING, 'all');
      const store = await openTrustStore({ name: env.name, indexedDB: env.factory });
      const approval = await store.getApproval(env.origin, env.skill.alpha);
      const stored = approval ? await store.getSkill(env.origin, env.skill.alpha, approval.digestLf) : null;
      if (!approval || !stored) throw new Error('nothing stored');
      // As an older version left them: the approval, and the stored report's copy of it, without a review.
      const { review: _dropped, ...older } = approval;
      await store.approve(older, stored);
      const report = await store.getReport(env.origin);
      if (!report) throw new Error('no stored report');
      for (const s of report.skills) if (s.approval.approval) delete s.approval.approval.review;
      await store.putReport(report);
      store.close();
      const requests = env.server.log.length;
      clear();
      const out = await driver.deliver(env, env.skill.alpha);
      expect(out.delivered).toBe(false);
      if (out.error !== undefined) expect(out.error).toBe('needs-confirmation');
      expect(env.server.log.length).toBe(requests);
    });
  }
});

describe('a policy change reaches the desktop program in the same sync', () => {
  it('a key the organisation pins for the site takes its approved skills out of the mirror and the agent folders, with no check asked', async () => {
    expect(env.native.agentCopy('.claude/skills', 'alpha')).not.toBeNull();
    await policy(env, { pinnedKeys: { [env.origin]: OTHER.b64 } });
    await env.service.idle();
    expect(env.native.mirrored().has(env.skill.alpha)).toBe(false);
    expect(env.native.agentCopy('.claude/skills', 'alpha')).toBeNull();
  });
});
