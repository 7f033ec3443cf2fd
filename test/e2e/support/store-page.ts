// The trust store bundled for a plain web page (esbuild, like the test composers), so that a test can
// run its IndexedDB schema and migrations in a real browser engine: the upgrade steps rename and copy
// object stores, which node's fake-indexeddb only imitates.
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../../support/server';

const ENTRY = resolve('test/e2e/support/store-page-entry.ts');

export async function serveStorePage(): Promise<TestServer> {
  const out = await build({ entryPoints: [ENTRY], bundle: true, format: 'iife', target: 'es2022', write: false, logLevel: 'warning' });
  const js = out.outputFiles[0]?.text ?? '';
  return startServer({
    files: {
      '/index.html': '<!doctype html><meta charset="utf-8"><title>store</title><script src="store.js"></script><p>store</p>',
      '/store.js': js,
    },
  });
}

/** What the page reports after migrating a schema-4 database (see store-page-entry.ts). */
export interface MigrationResult {
  version: number;
  keyPath: string | string[];
  indexes: string[];
  rawSkills: { url: string; filesKey: unknown; size?: unknown }[];
  totals: Record<string, number>;
  legacy: { found: boolean; filesDigest: unknown };
  approvalArchive: unknown;
  afterWrite: Record<string, number>;
}
