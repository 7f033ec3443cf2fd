// ARCHITECTURE.md invariants about who may import whom, checked over the source tree.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...files(rel));
    else if (/\.(ts|tsx)$/.test(name)) out.push(rel);
  }
  return out;
}

function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((m[1] ?? m[2]) as string);
  }
  return found;
}

/** Resolves a relative specifier to a repo-relative path prefix. */
function target(file: string, spec: string): string {
  if (spec.startsWith('@/')) return spec.slice(2);
  if (!spec.startsWith('.')) return spec;
  return relative(ROOT, join(ROOT, file, '..', spec));
}

describe('module boundaries', () => {
  it('lib/ never imports from entrypoints/ or components/', () => {
    const bad = files('lib').flatMap((f) => imports(f).map((s) => [f, target(f, s)] as const)).filter(([, t]) => t.startsWith('entrypoints') || t.startsWith('components'));
    expect(bad).toEqual([]);
  });

  it('components/ never import network, storage, engine or verification code', () => {
    const forbidden = ['lib/net', 'lib/trust', 'lib/engine', 'lib/verify', 'lib/scheduler', 'lib/background', 'idb', 'wxt/browser'];
    const bad = files('components')
      .flatMap((f) => imports(f).map((s) => [f, target(f, s)] as const))
      .filter(([, t]) => forbidden.some((p) => t === p || t.startsWith(p + '/')));
    expect(bad).toEqual([]);
  });

  it('nothing in the extension imports the desktop program (host/); the host imports lib/, never the reverse', () => {
    const extension = [...files('lib'), ...files('components'), ...files('entrypoints')];
    const bad = extension.flatMap((f) => imports(f).map((s) => [f, target(f, s)] as const)).filter(([, t]) => t === 'host' || t.startsWith('host/'));
    expect(bad).toEqual([]);
  });

  it("host/ takes from lib/ only pure modules (the desktop protocol, parsing, verification), never the extension's I/O", () => {
    const allowed = ['lib/desktop', 'lib/parse', 'lib/verify'];
    const bad = files('host')
      .flatMap((f) => imports(f).map((s) => [f, target(f, s)] as const))
      .filter(([, t]) => t.startsWith('lib/') || t.startsWith('entrypoints') || t.startsWith('components') || t.startsWith('wxt') || t === 'idb')
      .filter(([, t]) => !allowed.some((p) => t === p || t.startsWith(p + '/')));
    expect(bad).toEqual([]);
    expect(files('host').length).toBeGreaterThan(5);
    expect(imports('host/handlers.ts')).toContain('../lib/desktop/revision');
  });

  it('the desktop program makes no network request: no network module, no fetch, only the stdio parts of the MCP SDK', () => {
    const network = /^(node:)?(http|https|http2|net|tls|dgram|dns)(\/|$)/;
    const bad: string[] = [];
    for (const f of [...files('host'), ...files('lib/desktop')]) {
      for (const s of imports(f)) {
        if (network.test(s)) bad.push(`${f}: ${s}`);
        if (s.startsWith('@modelcontextprotocol/') && !['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk/server/stdio.js', '@modelcontextprotocol/sdk/types.js'].includes(s)) bad.push(`${f}: ${s}`);
      }
      if (/\bfetch\s*\(|XMLHttpRequest|WebSocket/.test(readFileSync(join(ROOT, f), 'utf8'))) bad.push(`${f}: a network call`);
    }
    expect(bad).toEqual([]);
    expect(imports('host/mcp.ts')).toContain('@modelcontextprotocol/sdk/server/stdio.js');
  });

  it('lib/ runs under node and in a service worker: no node: built-ins', () => {
    const bad = files('lib').flatMap((f) => imports(f).filter((s) => s.startsWith('node:')).map((s) => `${f}: ${s}`));
    expect(bad).toEqual([]);
  });

  it('JSON imports in lib/ carry the json import attribute (node loads lib/ as ESM in the end-to-end suites)', () => {
    const bad = files('lib').flatMap((f) =>
      [...readFileSync(join(ROOT, f), 'utf8').matchAll(/^import\s[^;]*?from\s+['"]([^'"]+\.json)['"]([^;\n]*)/gm)]
        .filter((m) => !/with\s*\{\s*type:\s*['"]json['"]\s*\}/.test(m[2] ?? ''))
        .map((m) => `${f}: ${m[1]}`),
    );
    expect(bad).toEqual([]);
  });

  it('the scan sees the tree (guards against an empty walk)', () => {
    expect(files('lib').length).toBeGreaterThan(40);
    expect(files('components').length).toBeGreaterThan(10);
    expect(imports('lib/background/context.ts')).toContain('../engine/probe-origin');
  });
});
