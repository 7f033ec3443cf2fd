// The demo's toolbar pin (scripts/lib/chromium.mjs): the unpacked extension id Chromium
// derives from the folder, and the Preferences written before the first launch. That the id
// is the one the browser reports is checked in test/e2e/demo.spec.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinExtensions, sandboxFor, unpackedExtensionId, viewerArgs } from '../../../scripts/lib/chromium.mjs';

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillpin-profile-test-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('unpackedExtensionId', () => {
  it('is 32 letters a–p, the same through a symlink or a relative path, different for another folder', () => {
    const root = tempDir();
    mkdirSync(join(root, 'ext'));
    mkdirSync(join(root, 'other'));
    symlinkSync(join(root, 'ext'), join(root, 'link'));
    const id = unpackedExtensionId(join(root, 'ext'));
    expect(id).toMatch(/^[a-p]{32}$/);
    expect(unpackedExtensionId(join(root, 'link'))).toBe(id);
    expect(unpackedExtensionId(join(root, 'other', '..', 'ext'))).toBe(id);
    expect(unpackedExtensionId(join(root, 'other'))).not.toBe(id);
  });
});

describe('pinExtensions', () => {
  const prefsOf = (profile: string) => JSON.parse(readFileSync(join(profile, 'Default', 'Preferences'), 'utf8')) as Record<string, unknown>;

  it('writes the pinned list into a fresh profile', () => {
    const profile = tempDir();
    pinExtensions(profile, ['a'.repeat(32)]);
    expect(prefsOf(profile)).toEqual({ extensions: { pinned_extensions: ['a'.repeat(32)] } });
  });

  it('keeps the preferences already there and pins an id once', () => {
    const profile = tempDir();
    mkdirSync(join(profile, 'Default'));
    writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ browser: { x: 1 }, extensions: { theme: 't', pinned_extensions: ['b'.repeat(32)] } }));
    pinExtensions(profile, ['a'.repeat(32), 'b'.repeat(32)]);
    expect(prefsOf(profile)).toEqual({ browser: { x: 1 }, extensions: { theme: 't', pinned_extensions: ['b'.repeat(32), 'a'.repeat(32)] } });
  });
});

describe('the sandbox of a browser a person looks at (the demo, the screenshots)', () => {
  it('stays on for a normal user, with no flag and so no warning bar', () => {
    expect(sandboxFor(1000)).toEqual({ sandbox: true, args: [], note: null });
    expect(viewerArgs('/ext', 1000)).not.toContain('--no-sandbox');
  });

  it('as root, where Chromium refuses to start sandboxed: --no-sandbox, the bar kept away with --test-type, and a note saying so', () => {
    const root = sandboxFor(0);
    expect(root.sandbox).toBe(false);
    expect(root.args).toEqual(['--no-sandbox', '--test-type']);
    expect(root.note).toMatch(/sandbox is off/);
    expect(viewerArgs('/ext', 0).filter((a) => a === '--no-sandbox')).toHaveLength(1);
  });
});
