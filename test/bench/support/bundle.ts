// Bundles a bench module into one IIFE string that a service worker can evaluate through
// the debugging protocol (no eval inside the extension: its CSP forbids that).
import { build, type Rollup } from 'vite';
import { resolve } from 'node:path';

export async function bundleForWorker(entry: string, globalName: string): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: resolve('.'),
    build: {
      write: false,
      minify: false,
      lib: { entry: resolve(entry), formats: ['iife'], name: globalName, fileName: () => 'bench.js' },
      rollupOptions: { output: { extend: false } },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rollup.RollupOutput[];
  for (const o of outputs) {
    for (const chunk of o.output) if (chunk.type === 'chunk') return `${chunk.code}\n;globalThis.${globalName} = ${globalName};`;
  }
  throw new Error('bundle produced no chunk');
}
