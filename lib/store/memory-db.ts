// An IndexedDB database held in this worker's memory: the second backend of the trust store, for the
// private windows (private-store.ts), whose records must never reach the disk. The store's parts
// (idb-*.ts, evict.ts, byte-totals.ts) run over it unchanged, so the rules, the budgets and the
// eviction are the same code in both windows.
//
// It implements the part of idb's promise API those parts use — get, getKey, put, delete, getAll,
// getAllKeys, count, and cursors that continue and advance, on object stores and their indexes —
// with IndexedDB's semantics where they matter: keys ordered as IndexedDB orders them, records
// copied in and out (their bytes shared), a record whose index key is not a valid key left out of
// that index, and transactions that run one at a time, commit once their last request is done and
// the caller has nothing more to ask, and undo every write when they abort. Its object stores and
// indexes are made by the schema's own upgrade steps (schema.ts), run once over the empty database.
import type { IDBPDatabase } from 'idb';
import { SCHEMA_VERSION, type SkillpinDB, type UpgradeDb, type UpgradeTx, upgrade } from './schema';

type Key = number | string | Key[];
type KeyPath = string | string[];
type Query = unknown;

interface Table {
  keyPath: KeyPath | null;
  indexes: Map<string, KeyPath>;
  /** Records by the text of their key (keyText). */
  rows: Map<string, { key: Key; value: unknown }>;
}

interface Row {
  key: Key;
  primaryKey: Key;
  value: unknown;
}

/**
 * A copy of a record, as IndexedDB hands out and keeps: objects and arrays are copied, the bytes of
 * a typed array are shared (nothing changes stored bytes in place, and copying them would cost more
 * than the whole rest of a probe's commit).
 */
function copy<T>(v: T): T {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
  if (Array.isArray(v)) return v.map(copy) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = copy(x);
  return out as T;
}

function isKey(v: unknown): v is Key {
  if (typeof v === 'number') return !Number.isNaN(v);
  if (typeof v === 'string') return true;
  return Array.isArray(v) && v.every(isKey);
}

/** IndexedDB's key order: numbers, then strings (by code unit), then arrays (element by element). */
export function compareKeys(a: Key, b: Key): number {
  const rank = (k: Key): number => (typeof k === 'number' ? 0 : typeof k === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareKeys(a[i] as Key, b[i] as Key);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function keyText(k: Key): string {
  return JSON.stringify(k, (_name, v: unknown) => (typeof v === 'number' ? `n${v}` : typeof v === 'string' ? `s${v}` : v));
}

/** The value's key at `path`, or undefined when it has none that is a valid key. */
function keyAt(value: unknown, path: string | string[]): Key | undefined {
  const field = (name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
  const key = Array.isArray(path) ? path.map(field) : field(path);
  return isKey(key) ? key : undefined;
}

/** Index keys already worked out, by stored value and key path (a stored value is never changed, only replaced). */
const indexKeys = new WeakMap<object, Map<string | string[], Key | undefined>>();

function indexKeyOf(value: unknown, path: string | string[]): Key | undefined {
  if (typeof value !== 'object' || value === null) return keyAt(value, path);
  let known = indexKeys.get(value);
  if (!known) {
    known = new Map();
    indexKeys.set(value, known);
  }
  if (!known.has(path)) known.set(path, keyAt(value, path));
  return known.get(path);
}

interface Range {
  lower?: Key;
  upper?: Key;
  lowerOpen: boolean;
  upperOpen: boolean;
}

/**
 * `query` as a plain range: everything (undefined), one key, or a key range, read once (a browser's
 * IDBKeyRange makes a new key each time its bounds are read).
 */
function rangeOf(query: Query): Range {
  if (query === undefined || query === null) return { lowerOpen: false, upperOpen: false };
  if (isKey(query)) return { lower: query, upper: query, lowerOpen: false, upperOpen: false };
  const { lower, upper, lowerOpen, upperOpen } = query as Range;
  return { lower, upper, lowerOpen, upperOpen };
}

function inRange(key: Key, r: Range): boolean {
  if (r.lower !== undefined) {
    const c = compareKeys(key, r.lower);
    if (c < 0 || (c === 0 && r.lowerOpen)) return false;
  }
  if (r.upper !== undefined) {
    const c = compareKeys(key, r.upper);
    if (c > 0 || (c === 0 && r.upperOpen)) return false;
  }
  return true;
}

let tasks: { queue: (() => void)[]; channel: MessageChannel } | null = null;

/** Under node an open port keeps the process alive: it is held only while a task waits (a browser has neither method). */
function hold(port: MessagePort, on: boolean): void {
  const p = port as { ref?: () => void; unref?: () => void };
  if (on) p.ref?.();
  else p.unref?.();
}

/** Runs `fn` in a task after the current one: a message to itself, which nested timers' clamping does not slow. */
function nextTask(fn: () => void): void {
  if (!tasks) {
    const t = { queue: [] as (() => void)[], channel: new MessageChannel() };
    t.channel.port1.onmessage = () => {
      t.queue.shift()?.();
      if (t.queue.length === 0) hold(t.channel.port1, false);
    };
    tasks = t;
  }
  tasks.queue.push(fn);
  hold(tasks.channel.port1, true);
  tasks.channel.port2.postMessage(null);
}

class Cursor {
  constructor(
    private readonly rows: Row[],
    private at: number,
    private readonly source: MemoryStore,
  ) {}

  private get row(): Row {
    return this.rows[this.at] as Row;
  }

  get key(): Key {
    return this.row.key;
  }

  get primaryKey(): Key {
    return this.row.primaryKey;
  }

  get value(): unknown {
    return this.source.current(this.row.primaryKey);
  }

  advance(count: number): Promise<Cursor | null> {
    return this.source.tx.request(() => {
      let n = count;
      // A record deleted after the cursor was opened is passed over, as IndexedDB does.
      while (n > 0 && ++this.at < this.rows.length) if (this.source.current(this.row.primaryKey) !== undefined) n--;
      return this.at < this.rows.length ? this : null;
    });
  }

  continue(): Promise<Cursor | null> {
    return this.advance(1);
  }
}

/** An object store, or one of its indexes (`path` set), as one transaction sees it. */
class MemoryStore {
  constructor(
    readonly tx: MemoryTx,
    private readonly table: Table,
    private storeName: string,
    private readonly path?: string | string[],
  ) {}

  get name(): string {
    return this.storeName;
  }

  /** Renaming a store (the schema's upgrade to version 5 does). */
  set name(next: string) {
    const tables = this.tx.db.tables;
    tables.delete(this.storeName);
    tables.set(next, this.table);
    this.storeName = next;
  }

  /** A copy of the record stored under `primaryKey` now, or undefined. */
  current(primaryKey: Key): unknown {
    const row = this.table.rows.get(keyText(primaryKey));
    return row === undefined ? undefined : copy(row.value);
  }

  /** The records in `query`, in key order (for an index: index key, then primary key). */
  private rows(query: Query, direction: IDBCursorDirection = 'next', sorted = true): Row[] {
    if (this.path === undefined && isKey(query)) {
      // One record by its key: no walk.
      const row = this.table.rows.get(keyText(query));
      return row ? [{ key: row.key, primaryKey: row.key, value: row.value }] : [];
    }
    const range = rangeOf(query);
    const out: Row[] = [];
    for (const { key, value } of this.table.rows.values()) {
      const k = this.path === undefined ? key : indexKeyOf(value, this.path);
      if (k !== undefined && inRange(k, range)) out.push({ key: k, primaryKey: key, value });
    }
    if (sorted) out.sort((a, b) => compareKeys(a.key, b.key) || compareKeys(a.primaryKey, b.primaryKey));
    return direction === 'prev' ? out.reverse() : out;
  }

  get(query: Query): Promise<unknown> {
    return this.tx.request(() => {
      const row = this.rows(query)[0];
      return row ? copy(row.value) : undefined;
    });
  }

  getKey(query: Query): Promise<Key | undefined> {
    return this.tx.request(() => this.rows(query)[0]?.primaryKey);
  }

  getAll(query?: Query): Promise<unknown[]> {
    return this.tx.request(() => this.rows(query).map((r) => copy(r.value)));
  }

  getAllKeys(query?: Query): Promise<Key[]> {
    return this.tx.request(() => this.rows(query).map((r) => r.primaryKey));
  }

  count(query?: Query): Promise<number> {
    return this.tx.request(() => this.rows(query, 'next', false).length);
  }

  openCursor(query?: Query, direction?: IDBCursorDirection): Promise<Cursor | null> {
    return this.tx.request(() => {
      const rows = this.rows(query, direction);
      return rows.length > 0 ? new Cursor(rows, 0, this) : null;
    });
  }

  openKeyCursor(query?: Query, direction?: IDBCursorDirection): Promise<Cursor | null> {
    return this.openCursor(query, direction);
  }

  put(value: unknown, outOfLine?: Key): Promise<Key> {
    this.tx.mayWrite();
    return this.tx.request(() => {
      const key = this.table.keyPath === null ? outOfLine : keyAt(value, this.table.keyPath);
      if (key === undefined || !isKey(key)) throw new DOMException('the record has no valid key', 'DataError');
      this.tx.write(this.table, key, copy(value));
      return key;
    });
  }

  delete(query: Query): Promise<void> {
    this.tx.mayWrite();
    return this.tx.request(() => {
      for (const row of this.rows(query, 'next', false)) this.tx.write(this.table, row.primaryKey, undefined);
    });
  }

  index(name: string): MemoryStore {
    const path = this.table.indexes.get(name);
    if (path === undefined) throw new DOMException(`no index ${name}`, 'NotFoundError');
    return new MemoryStore(this.tx, this.table, this.storeName, path);
  }

  createIndex(name: string, keyPath: string | string[]): void {
    this.table.indexes.set(name, keyPath);
  }

  deleteIndex(name: string): void {
    this.table.indexes.delete(name);
  }
}

/** One transaction: it starts when the one before it has ended, and its requests run in order. */
class MemoryTx {
  /** Every write, with the record it replaced, to undo on abort. */
  private readonly undo: { table: Table; text: string; before: { key: Key; value: unknown } | undefined }[] = [];
  private state: 'waiting' | 'active' | 'committed' | 'aborted' = 'waiting';
  private pending = 0;
  private asked = 0;
  /** A look for the end is scheduled (one at a time). */
  private checking = false;
  private settle!: (error?: unknown) => void;
  /** Settles when the transaction commits (resolved) or aborts (rejected). */
  readonly done: Promise<void>;
  /** Resolves when the transaction has ended, either way. */
  readonly ended: Promise<void>;

  constructor(
    readonly db: MemoryDb,
    private readonly turn: Promise<void>,
    /** The object stores it may use; null: every one (the schema's upgrade). */
    private readonly scope: readonly string[] | null,
    readonly mode: IDBTransactionMode,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    this.ended = this.done.catch(() => undefined);
    void turn.then(() => {
      if (this.state !== 'waiting') return;
      this.state = 'active';
      this.idle();
    });
  }

  objectStore(name: string): MemoryStore {
    const table = this.db.tables.get(name);
    if (!table || (this.scope !== null && !this.scope.includes(name))) throw new DOMException(`no object store ${name}`, 'NotFoundError');
    return new MemoryStore(this, table, name);
  }

  /** Runs `op` in its turn; a request that fails aborts the transaction, as in IndexedDB. */
  async request<T>(op: () => T): Promise<T> {
    if (this.state === 'committed' || this.state === 'aborted') throw new DOMException('the transaction has finished', 'TransactionInactiveError');
    this.pending++;
    this.asked++;
    await this.turn;
    try {
      if (this.state !== 'active') throw new DOMException('the transaction has finished', 'TransactionInactiveError');
      return op();
    } catch (e) {
      this.abort(e);
      throw e;
    } finally {
      this.pending--;
      this.idle();
    }
  }

  /** A write in a read-only transaction throws where it is asked, as IndexedDB's does. */
  mayWrite(): void {
    if (this.mode === 'readonly') throw new DOMException('the transaction is read-only', 'ReadOnlyError');
  }

  write(table: Table, key: Key, value: unknown): void {
    const text = keyText(key);
    this.undo.push({ table, text, before: table.rows.get(text) });
    if (value === undefined) table.rows.delete(text);
    else table.rows.set(text, { key, value });
  }

  /** IndexedDB's auto-commit: once no request is pending and, a task later, none was asked. */
  private idle(): void {
    if (this.checking) return;
    this.checking = true;
    const asked = this.asked;
    nextTask(() => {
      this.checking = false;
      if (this.state !== 'active' || this.pending > 0) return;
      // Asked again since: look once more a task later.
      if (this.asked === asked) this.end('committed');
      else this.idle();
    });
  }

  abort(error: unknown = new DOMException('the transaction was aborted', 'AbortError')): void {
    if (this.state === 'committed' || this.state === 'aborted') return;
    for (const { table, text, before } of this.undo.reverse()) {
      if (before === undefined) table.rows.delete(text);
      else table.rows.set(text, before);
    }
    this.end('aborted', error);
  }

  private end(state: 'committed' | 'aborted', error?: unknown): void {
    this.state = state;
    this.undo.length = 0;
    this.settle(error);
  }
}

export class MemoryDb {
  readonly tables = new Map<string, Table>();
  /** Resolves when the newest transaction has ended. */
  private last: Promise<void> = Promise.resolve();
  private upgrading: MemoryTx | null = null;
  // The part of IDBDatabase the schema's upgrade steps read.
  readonly objectStoreNames = { contains: (name: string): boolean => this.tables.has(name) };

  transaction(names: string | readonly string[], mode: IDBTransactionMode = 'readonly', _options?: unknown): MemoryTx {
    const tx = new MemoryTx(this, this.last, typeof names === 'string' ? [names] : names, mode);
    this.last = tx.ended;
    return tx;
  }

  createObjectStore(name: string, options: { keyPath?: string | string[] } = {}): MemoryStore {
    this.tables.set(name, { keyPath: options.keyPath ?? null, indexes: new Map(), rows: new Map() });
    return (this.upgrading as MemoryTx).objectStore(name);
  }

  deleteObjectStore(name: string): void {
    this.tables.delete(name);
  }

  /** StoreCore listens for `versionchange` and `close`: neither happens to a database in memory. */
  addEventListener(): void {}

  close(): void {}

  /** Makes the object stores and indexes by the schema's upgrade steps from version 0. */
  async create(): Promise<void> {
    const tx = new MemoryTx(this, this.last, null, 'versionchange');
    this.last = tx.ended;
    this.upgrading = tx;
    await upgrade(this as unknown as UpgradeDb, 0, SCHEMA_VERSION, tx as unknown as UpgradeTx);
    await tx.done;
    this.upgrading = null;
  }
}

/** A new, empty trust database in memory, typed as the IndexedDB one the store's parts are written over. */
export async function openMemoryDatabase(): Promise<IDBPDatabase<SkillpinDB>> {
  const db = new MemoryDb();
  await db.create();
  return db as unknown as IDBPDatabase<SkillpinDB>;
}
