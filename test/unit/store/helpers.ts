// Builders shared by the trust store tests.
import { sha256 } from '@noble/hashes/sha2.js';
import type { IDBFactory } from 'fake-indexeddb';
import type { Approval, OriginReport } from '../../../lib/types';
import type { ProbeCacheEntry, StoredSkill } from '../../../lib/store/records';
import { encodeBase64 } from '../../../lib/verify/base64';
import { fingerprint } from '../../../lib/verify/fingerprint';
import { openTestStore } from '../../support/trust-store';

export type { TestStore } from '../../support/trust-store';
/** A store of its own in a fresh fake-indexeddb (test/support/trust-store.ts). */
export const freshStore = openTestStore;

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function digestOf(text: string): string {
  return hex(sha256(new TextEncoder().encode(text)));
}

/** A deterministic 32-byte "publisher key", its base64 and its fingerprint. */
export function keyPair(seed: number): { key: string; fingerprint: string; bytes: Uint8Array } {
  const bytes = new Uint8Array(32).map((_, i) => (seed * 31 + i * 7) & 0xff);
  return { key: encodeBase64(bytes), fingerprint: fingerprint(bytes), bytes };
}

export function makeSkill(origin: string, url: string, text: string, storedAt: number): StoredSkill {
  const bytes = new TextEncoder().encode(text);
  const lf = new TextEncoder().encode(text.replace(/\r\n/g, '\n'));
  return { origin, url, digestLf: hex(sha256(lf)), digestRaw: hex(sha256(bytes)), bytes, storedAt };
}

export function approvalFor(skill: StoredSkill, keyFingerprint: string | null, approvedAt = skill.storedAt + 1): Approval {
  return {
    origin: skill.origin,
    url: skill.url,
    digestLf: skill.digestLf,
    digestRaw: skill.digestRaw,
    keyFingerprint,
    statusAtApproval: keyFingerprint ? 'verified-signed' : 'verified',
    name: 'skill',
    approvedAt,
  };
}

export function makeCacheEntry(url: string, positive: boolean, storedAt: number, expiresAt: number): ProbeCacheEntry {
  return {
    url,
    origin: new URL(url).origin,
    kind: 'llms-txt',
    positive,
    status: positive ? 200 : 404,
    finalUrl: positive ? url : null,
    contentType: positive ? 'text/plain' : null,
    etag: null,
    lastModified: null,
    bytes: positive ? new TextEncoder().encode(`# ${url}\n`) : null,
    storedAt,
    expiresAt,
  };
}

export function makeReport(origin: string, finishedAt: number | null): OriginReport {
  return {
    reportVersion: 1,
    origin,
    state: 'done',
    skippedBecause: null,
    startedAt: finishedAt === null ? null : finishedAt - 50,
    finishedAt,
    publishes: false,
    sources: [],
    key: { state: 'none', pinned: null, offered: null, conflicting: null },
    skills: [],
    diagnostics: [],
    summary: { total: 0, usable: 0, approved: 0, warnings: 0, byStatus: {} },
  };
}

/** Opens the raw database (no version change) to plant or inspect records behind the store's back. */
export function rawOpen(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function txDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Puts `value` into `store` bypassing every check (key given for out-of-line stores). */
export async function plant(factory: IDBFactory, name: string, store: string, value: unknown, key?: IDBValidKey): Promise<void> {
  const db = await rawOpen(factory, name);
  try {
    const tx = db.transaction(store, 'readwrite');
    const finished = txDone(tx);
    if (key === undefined) tx.objectStore(store).put(value);
    else tx.objectStore(store).put(value, key);
    await finished;
  } finally {
    db.close();
  }
}

/** Every raw record of a store, unchecked. */
export async function rawAll(factory: IDBFactory, name: string, store: string): Promise<unknown[]> {
  const db = await rawOpen(factory, name);
  try {
    return await new Promise<unknown[]>((resolve, reject) => {
      const request = db.transaction(store, 'readonly').objectStore(store).getAll();
      request.onsuccess = () => resolve(request.result as unknown[]);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}
