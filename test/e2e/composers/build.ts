// Bundles every test composer page with esbuild into test-results/composers/<id>/
// (index.html, app.js, app.css when the editor ships a style sheet).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMPOSER_PAGES } from './catalogue';

export const COMPOSERS_OUT = resolve('test-results/composers');
const SITES = resolve('test/e2e/composers/sites');

export async function buildComposers(outDir = COMPOSERS_OUT): Promise<string> {
  await build({
    entryPoints: Object.fromEntries(COMPOSER_PAGES.map((p) => [`${p.id}/app`, join(SITES, `${p.id}.ts`)])),
    outdir: outDir,
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: false,
    sourcemap: false,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  for (const page of COMPOSER_PAGES) {
    const dir = join(outDir, page.id);
    mkdirSync(dir, { recursive: true });
    const body = readFileSync(join(SITES, `${page.html ?? page.id}.html`), 'utf8');
    const css = existsSync(join(dir, 'app.css')) ? '<link rel="stylesheet" href="app.css">\n' : '';
    const html = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${page.id} (test composer)</title>\n${css}<style>body{font:15px/1.5 system-ui,sans-serif;margin:24px;max-width:760px} [contenteditable],textarea{min-height:120px;border:1px solid #999;padding:6px} .attachment-chip{display:inline-block;border:1px solid #555;border-radius:8px;padding:2px 8px;margin:4px}</style>\n</head>\n<body>\n${body}<script src="app.js"></script>\n</body>\n</html>\n`;
    writeFileSync(join(dir, 'index.html'), html);
  }
  return outDir;
}
