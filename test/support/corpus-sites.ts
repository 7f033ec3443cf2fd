// Corpus folders as origins: where the test corpus lives, the real sites and their
// MANIFEST rows, the production host a site's index names, and a fetch wrapper that
// presents the folder under that host (and its `_external/<host>/` copies) on the loopback
// server, so no test touches the network.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FetchLike } from '../../lib/types';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The corpus is part of the repository (test/fixtures/corpus, byte-exact, `-text` in
 * .gitattributes; its README names each file's source), so a clone runs the tests with
 * nothing beside it. There is no override: the tests count exact cases in this copy.
 */
export const CORPUS = resolve(repoRoot, 'test/fixtures/corpus');
export const LTS = join(CORPUS, 'llms-txt-skills');
export const REAL = join(CORPUS, 'real');
export const SITES = join(REAL, 'sites');

export interface ManifestRow {
  localPath: string;
  site: string;
  /** Path inside the site folder. */
  rel: string;
  sourceRepo: string;
  sourcePath: string;
  commit: string;
  size: number;
  sha256: string;
  notes: string;
}

let manifestCache: ManifestRow[] | null = null;

export function readManifest(): ManifestRow[] {
  if (manifestCache) return manifestCache;
  const lines = readFileSync(join(REAL, 'MANIFEST.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '');
  manifestCache = lines.map((line) => {
    const [localPath = '', sourceRepo = '', sourcePath = '', commit = '', size = '0', sha256 = '', notes = ''] = line.split('\t');
    const parts = localPath.split('/');
    return { localPath, site: parts[1] ?? '', rel: parts.slice(2).join('/'), sourceRepo, sourcePath, commit, size: Number(size), sha256, notes };
  });
  return manifestCache;
}

export function realSites(): string[] {
  return readdirSync(SITES)
    .filter((d) => statSync(join(SITES, d)).isDirectory())
    .sort();
}

export function siteRows(site: string): ManifestRow[] {
  return readManifest().filter((r) => r.site === site);
}

const GITHUB_RAW = 'raw.githubusercontent.com';

/** The production host a site's own files are served from (MANIFEST `absolute:<host>` on a non-_external file), or null. */
export function productionHost(site: string): string | null {
  const counts = new Map<string, number>();
  for (const r of siteRows(site)) {
    if (r.rel.startsWith('_external/')) continue;
    for (const m of r.notes.matchAll(/absolute:([A-Za-z0-9.-]+)/g)) {
      const host = m[1] as string;
      if (host === GITHUB_RAW) continue;
      counts.set(host, (counts.get(host) ?? 0) + 1);
    }
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [host, n] of counts) {
    if (n > bestCount) [best, bestCount] = [host, n];
  }
  return best;
}

function fileExists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Where a non-loopback URL is served from inside the site folder, as a URL path on the
 * loopback server; null when the corpus holds nothing for it (the wrapper answers 404).
 */
export function localPathFor(site: string, url: URL, prodHost: string | null): string | null {
  const folder = join(SITES, site);
  if (prodHost !== null && url.host === prodHost) return url.pathname;
  const ext = `/_external/${url.host}${url.pathname}`;
  if (fileExists(join(folder, decodeURIComponent(ext)))) return ext;
  if (url.host === GITHUB_RAW) {
    // /<owner>/<repo>/<ref>/<path> of the site's own repository: the file with that source path.
    const [, owner, repo, , ...rest] = url.pathname.split('/');
    const sourcePath = decodeURIComponent(rest.join('/'));
    for (const r of siteRows(site)) {
      if (r.sourceRepo === `${owner}/${repo}` && r.sourcePath === sourcePath) return '/' + r.rel;
    }
  }
  return null;
}

/** A fetch that keeps loopback URLs, maps corpus hosts onto `loopbackOrigin`, and answers 404 for anything else. */
export function mappedFetch(loopbackOrigin: string, map: (url: URL) => string | null): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    if (url.origin === loopbackOrigin) return fetch(url.href, init);
    const path = map(url);
    if (path === null) return new Response('not in the corpus', { status: 404, headers: { 'content-type': 'text/plain' } });
    return fetch(loopbackOrigin + path + url.search, init);
  };
}

/** The engine origin for a real site: its production host when it has one, else the loopback origin. */
export function siteOrigin(site: string, loopbackOrigin: string): string {
  const host = productionHost(site);
  return host ? `https://${host}` : loopbackOrigin;
}

export function exists(path: string): boolean {
  return existsSync(path);
}
