// `npm run demo` as a new user meets it: the first screen is the demo
// publisher, the only tab and in front, with Skillpin pinned to the toolbar (the id the
// profile was prepared for is the id the browser reports) and its badge showing; the
// headless journey saves every screenshot, including the content-change diff and the
// key-change warning; Ctrl+C closes the browser and deletes the demo's profile.
import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Journey {
  extensionId: string;
  expectedExtensionId: string;
  pinnedToToolbar: boolean;
  publisher: string;
  firstScreen: { tabs: { url: string; active: boolean }[]; badge: string; badgeColor: number[] };
  contentChange: string;
  keyChange: { keyState: string; badge: string; badgeColor: number[] };
  download: { file: string; bytes: number } | null;
  screenshots: string[];
}

const SCREENSHOTS = [
  '01-publisher.png',
  '02-popup-list.png',
  '03-popup-details.png',
  '04-popup-approved.png',
  '05-popup-inserted.png',
  '06-mock-chat-inserted.png',
  '07-popup-chat-view.png',
  '08-popup-content-changed.png',
  '09-popup-key-changed.png',
  '10-options-chat-sites.png',
];

/** Runs the demo on the already built extension (global setup), headless, collecting its output. */
function runDemo(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(process.execPath, [resolve('scripts/demo.mjs')], {
    env: { ...process.env, SKIP_BUILD: '1', HEADLESS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => out, exited };
}

test('the headless demo: the first screen is the publisher tab alone, pinned with its badge; every screenshot is saved', async () => {
  test.setTimeout(180_000);
  const shots = mkdtempSync(join(tmpdir(), 'skillpin-demo-shots-'));
  const downloads = mkdtempSync(join(tmpdir(), 'skillpin-demo-downloads-'));
  try {
    const demo = runDemo({ DEMO_SHOTS: shots, DEMO_DOWNLOADS: downloads });
    const code = await demo.exited;
    expect(code, demo.output()).toBe(0);
    const journey = JSON.parse(readFileSync(join(shots, 'journey.json'), 'utf8')) as Journey;
    expect(journey.firstScreen.tabs).toEqual([{ url: journey.publisher, active: true }]);
    expect(journey.firstScreen.badge).toBe('5');
    // The badge colours (lib/background/badge.ts) as Chromium reports them: the store images draw them.
    expect(journey.firstScreen.badgeColor).toEqual([0x2e, 0x7d, 0x32, 255]);
    expect(journey.extensionId).toBe(journey.expectedExtensionId);
    expect(journey.pinnedToToolbar).toBe(true);
    expect(journey.contentChange).toBe('content-changed');
    expect(journey.keyChange).toEqual({ keyState: 'changed', badge: '!', badgeColor: [0xc6, 0x28, 0x28, 255] });
    expect(journey.screenshots).toEqual(SCREENSHOTS);
    for (const name of SCREENSHOTS) {
      const file = join(shots, name);
      expect(readFileSync(file).subarray(0, 8).toString('hex'), name).toBe('89504e470d0a1a0a');
      expect(statSync(file).size, name).toBeGreaterThan(5_000);
    }
    expect(demo.output()).not.toMatch(/NOT pinned/);
    // Export for upload saved the ZIP where the demo says, under its own name (not a random one in
    // a temporary folder of the automation).
    expect(demo.output()).toContain(`downloads:      ${downloads}`);
    expect(journey.download?.file).toBe(join(downloads, 'search-docs.zip'));
    expect(readFileSync(join(downloads, 'search-docs.zip')).subarray(0, 4).toString('hex')).toBe('504b0304');
  } finally {
    rmSync(shots, { recursive: true, force: true });
    rmSync(downloads, { recursive: true, force: true });
  }
});

test('Ctrl+C stops the demo: the browser closes, the process exits cleanly and its profile is deleted', async () => {
  test.setTimeout(120_000);
  const demo = runDemo({ DEMO_STAY: '1' });
  try {
    await expect.poll(demo.output, { timeout: 90_000 }).toContain('Ctrl+C stops the demo');
    const profile = /browser profile: (\S+)/.exec(demo.output())?.[1];
    if (!profile) throw new Error(`no profile in:\n${demo.output()}`);
    expect(existsSync(profile)).toBe(true);
    expect(demo.output()).toContain('Click the Skillpin icon (a green pin with a check mark) right of the address bar, showing 5');
    demo.child.kill('SIGINT');
    expect(await demo.exited, demo.output()).toBe(0);
    expect(existsSync(profile)).toBe(false);
  } finally {
    if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
  }
});
