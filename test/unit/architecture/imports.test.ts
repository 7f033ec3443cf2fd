// ARCHITECTURE.md invariants about who may import whom, checked over the source tree.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

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

/**
 * The floors of lib/ (ARCHITECTURE.md §4), lowest first. A unit is a directory of lib/ or a file at
 * its top (`types` is lib/types/). A module imports from its own unit or from a lower floor, never
 * from its own floor's other units nor from a higher one.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['types', 'origin', 'match-patterns', 'input'],
  ['net', 'i18n', 'scheduler', 'clipboard'],
  ['parse', 'verify', 'chat'],
  ['review'],
  ['render', 'desktop', 'export'],
  ['skill-context', 'store'],
  ['report', 'messages'],
  ['probe'],
  ['background'],
];

/** The text with its comments blanked out (strings and template literals kept as they are). */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Every module specifier a file names: static imports and re-exports (type-only ones too), side-effect and dynamic imports. */
function specifiers(file: string): string[] {
  const code = withoutComments(readFileSync(join(ROOT, file), 'utf8'));
  const found: string[] = [];
  const pattern = /(?:^|[;}\n])\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[;}\n])\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of code.matchAll(pattern)) found.push((m[1] ?? m[2] ?? m[3]) as string);
  return found;
}

/** The repo-relative file a relative or '@/' specifier names; null for a package; 'unresolved:…' when no file matches. */
function resolveModule(file: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = relative(ROOT, join(ROOT, dirname(file), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    const full = join(ROOT, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return `unresolved:${base}`;
}

/** lib/'s import graph: each module with the lib/ modules it imports. */
function libGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files('lib')) {
    const targets = specifiers(f)
      .map((s) => resolveModule(f, s))
      .filter((t): t is string => t !== null && (t.startsWith('lib/') || t.startsWith('unresolved:lib/')));
    graph.set(f, [...new Set(targets)]);
  }
  return graph;
}

/** Every strongly connected part of more than one module (or a module importing itself), as a closed path. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(closedPath(graph, new Set(part), v));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** One path from `start` back to itself inside `part` (breadth-first, so the shortest). */
function closedPath(graph: ReadonlyMap<string, readonly string[]>, part: ReadonlySet<string>, start: string): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!part.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = from.get(u) as string) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** The unit of a lib/ module: its directory under lib/, or its name for a file at the top. */
function unitOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? (parts[1] as string) : (parts[1] as string).replace(/\.tsx?$/, '');
}

function floorOf(unit: string): number {
  return FLOORS.findIndex((units) => units.includes(unit));
}

describe('module boundaries', () => {
  it('lib/ never imports from entrypoints/ or components/', () => {
    const bad = files('lib')
      .flatMap((f) => imports(f).map((s) => [f, target(f, s)] as const))
      .filter(([, t]) => t.startsWith('entrypoints') || t.startsWith('components'));
    expect(bad).toEqual([]);
  });

  it('components/ never import network, storage, engine or verification code', () => {
    const forbidden = ['lib/net', 'lib/store', 'lib/probe', 'lib/verify', 'lib/scheduler', 'lib/background', 'idb', 'wxt/browser'];
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

  it("host/ takes from lib/ only pure modules (the desktop protocol, parsing, verification), never the extension's I/O nor its desktop client", () => {
    const allowed = ['lib/desktop/protocol', 'lib/parse', 'lib/verify'];
    const bad = files('host')
      .flatMap((f) => imports(f).map((s) => [f, target(f, s)] as const))
      .filter(([, t]) => t.startsWith('lib/') || t.startsWith('entrypoints') || t.startsWith('components') || t.startsWith('wxt') || t === 'idb')
      .filter(([, t]) => !allowed.some((p) => t === p || t.startsWith(p + '/')));
    expect(bad).toEqual([]);
    expect(files('host').length).toBeGreaterThan(5);
    expect(imports('host/handlers.ts')).toContain('../lib/desktop/protocol/revision');
  });

  it('the desktop program makes no network request: no network module, no fetch, only the stdio parts of the MCP SDK', () => {
    const network = /^(node:)?(http|https|http2|net|tls|dgram|dns)(\/|$)/;
    const bad: string[] = [];
    for (const f of [...files('host'), ...files('lib/desktop')]) {
      for (const s of imports(f)) {
        if (network.test(s)) bad.push(`${f}: ${s}`);
        if (s.startsWith('@modelcontextprotocol/') && !['@modelcontextprotocol/sdk/server/index.js', '@modelcontextprotocol/sdk/server/stdio.js', '@modelcontextprotocol/sdk/types.js'].includes(s))
          bad.push(`${f}: ${s}`);
      }
      if (/\bfetch\s*\(|XMLHttpRequest|WebSocket/.test(readFileSync(join(ROOT, f), 'utf8'))) bad.push(`${f}: a network call`);
    }
    expect(bad).toEqual([]);
    expect(imports('host/mcp.ts')).toContain('@modelcontextprotocol/sdk/server/stdio.js');
  });

  it('lib/ runs under node and in a service worker: no node: built-ins', () => {
    const bad = files('lib').flatMap((f) =>
      imports(f)
        .filter((s) => s.startsWith('node:'))
        .map((s) => `${f}: ${s}`),
    );
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

  it('lib/ has no import cycle (type-only imports and re-exports count)', () => {
    const graph = libGraph();
    expect(importCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('the cycle check finds a cycle: a direct one, a longer one, and a module importing itself', () => {
    const graph = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(importCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['e', 'e'],
    ]);
    expect(
      importCycles(
        new Map([
          ['x', ['y']],
          ['y', ['x']],
        ]),
      ),
    ).toEqual([['x', 'y', 'x']]);
  });

  it('every import in lib/ resolves to a file (a missed resolution would hide an edge)', () => {
    const bad = [...libGraph()].flatMap(([f, targets]) => targets.filter((t) => t.startsWith('unresolved:')).map((t) => `${f}: ${t}`));
    expect(bad).toEqual([]);
  });

  it('lib/ imports run down the floors only: from the own unit or a lower floor', () => {
    const units = new Set(files('lib').map(unitOf));
    expect([...units].filter((u) => floorOf(u) < 0)).toEqual([]);
    const bad: string[] = [];
    for (const [f, targets] of libGraph()) {
      const from = unitOf(f);
      for (const t of targets) {
        const to = unitOf(t);
        if (to === from) continue;
        if (floorOf(to) >= floorOf(from)) bad.push(`${f} (${from}, floor ${floorOf(from)}) -> ${t} (${to}, floor ${floorOf(to)})`);
      }
    }
    expect(bad).toEqual([]);
    // Every unit named has modules: the table describes the tree as it is.
    expect(FLOORS.flat().filter((u) => !units.has(u))).toEqual([]);
  });

  it('ARCHITECTURE.md writes down the same floors', () => {
    const doc = readFileSync(join(ROOT, 'docs/design/ARCHITECTURE.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## 4. Floors'));
    const rows = [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => ({
      floor: Number(m[1]),
      units: [...(m[2] as string).matchAll(/`([^`]+)`/g)].map((u) => (u[1] as string).replace(/\/$/, '').replace(/\.ts$/, '')),
    }));
    expect(rows.map((r) => r.floor)).toEqual(FLOORS.map((_, i) => i));
    expect(rows.map((r) => r.units)).toEqual(FLOORS.map((units) => [...units]));
  });

  it('the import scan reads every form: multi-line, type-only, re-exports, and not commented-out imports', () => {
    expect(specifiers('lib/messages/index.ts')).toEqual(expect.arrayContaining(['./requests', '../store/backup/import', '../chat/insert']));
    expect(resolveModule('lib/background/create-worker-state.ts', '../probe/probe-origin')).toBe('lib/probe/probe-origin.ts');
    expect(resolveModule('lib/background/create-worker-state.ts', '@/lib/types')).toBe('lib/types/index.ts');
    expect(libGraph().get('lib/background/create-worker-state.ts')).toContain('lib/probe/probe-origin.ts');
    expect(withoutComments("// import x from './a';\n/* export * from './b' */ import y from './c';")).not.toMatch(/\.\/a|\.\/b/);
  });

  it('the scan sees the tree (guards against an empty walk)', () => {
    expect(files('lib').length).toBeGreaterThan(40);
    expect(files('components').length).toBeGreaterThan(10);
    expect(imports('lib/background/create-worker-state.ts')).toContain('../probe/probe-origin');
  });
});
