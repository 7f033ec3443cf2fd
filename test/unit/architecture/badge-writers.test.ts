// The toolbar badge is written from one module: lib/background/badge.ts calls the platform's
// setBadge, and entrypoints/background/platform.ts is that setBadge (the browser's action API). Any
// other file that sets a badge, or calls the action API's badge setters, fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

const files = ['lib', 'components', 'entrypoints'].flatMap((d) => sources(join(ROOT, d)));

describe('one module writes the badge', () => {
  it('only lib/background/badge.ts calls setBadge', () => {
    expect(files.length).toBeGreaterThan(100);
    const callers = files.filter((f) => /\.setBadge\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(callers).toEqual(['lib/background/badge.ts']);
  });

  it("only the platform calls the browser's badge setters", () => {
    const callers = files.filter((f) => /setBadge(Text|BackgroundColor|TextColor)\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(callers).toEqual(['entrypoints/background/platform.ts']);
  });
});
