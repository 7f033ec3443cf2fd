// The mirror on disk (docs/desktop.md): for each browser that hands skills over, a folder of
// skills, each a folder named by its key holding `record.json` (the approved facts, every file's
// digest and size, the agent copies written) and `files/` (the files exactly as approved).
// Only the host writes here; the MCP server only reads, and checks every file against the record
// before serving it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentId, isAgentId } from '../lib/desktop/limits';
import type { SkillFacts } from '../lib/desktop/protocol';
import { clearLeftovers, OLD_PREFIX, writeFileAtomic, writeTreeAtomic } from './atomic';

export const RECORD_FILE = 'record.json';
export const FILES_DIR = 'files';
const KEY = /^[0-9a-f]{64}$/;
const PARTITION = /^[0-9a-f]{16}$/;

export interface RecordFile {
  path: string;
  sha256: string;
  size: number;
}

export interface MirrorRecord extends SkillFacts {
  format: 1;
  key: string;
  /** The extension that handed it over (`chrome-extension://<id>/` or a Firefox add-on id). */
  caller: string;
  revision: string;
  files: RecordFile[];
  storedAt: number;
  /** The agent-folder copies the host wrote for this skill. */
  agents: { agent: AgentId; folder: string }[];
}

/** The folder of one caller's part of the mirror: 16 hex digits of SHA-256 of the caller. */
export function partitionOf(caller: string): string {
  return createHash('sha256').update(caller).digest('hex').slice(0, 16);
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function isRecord(value: unknown, key: string): value is MirrorRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    r.format === 1 &&
    r.key === key &&
    typeof r.caller === 'string' &&
    typeof r.origin === 'string' &&
    typeof r.url === 'string' &&
    typeof r.name === 'string' &&
    typeof r.revision === 'string' &&
    Array.isArray(r.files) &&
    r.files.every((f) => typeof f === 'object' && f !== null && typeof f.path === 'string' && typeof f.sha256 === 'string' && Number.isSafeInteger(f.size)) &&
    Array.isArray(r.agents) &&
    r.agents.every((a) => typeof a === 'object' && a !== null && isAgentId(a.agent) && typeof a.folder === 'string')
  );
}

export class Mirror {
  constructor(readonly root: string) {}

  partitionDir(caller: string): string {
    return join(this.root, partitionOf(caller));
  }

  skillDir(record: Pick<MirrorRecord, 'caller' | 'key'>): string {
    return join(this.partitionDir(record.caller), record.key);
  }

  /** Creates the mirror folder (only the user may read it) and clears what a crashed write left. */
  prepare(caller: string): void {
    mkdirSync(this.partitionDir(caller), { recursive: true, mode: 0o700 });
    clearLeftovers(this.partitionDir(caller));
  }

  /** The records of one caller, or of every caller; a folder whose record is unreadable is skipped. */
  records(caller?: string): MirrorRecord[] {
    const parts = caller === undefined ? this.partitions() : [partitionOf(caller)];
    const out: MirrorRecord[] = [];
    for (const part of parts) {
      const dir = join(this.root, part);
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const key of names.filter((n) => KEY.test(n)).sort()) {
        const record = this.read(join(dir, key), key);
        if (record !== null && (caller === undefined || record.caller === caller)) out.push(record);
      }
    }
    return out;
  }

  private partitions(): string[] {
    try {
      return readdirSync(this.root)
        .filter((n) => PARTITION.test(n))
        .sort();
    } catch {
      return [];
    }
  }

  private read(dir: string, key: string): MirrorRecord | null {
    try {
      const value: unknown = JSON.parse(readFileSync(join(dir, RECORD_FILE), 'utf8'));
      return isRecord(value, key) ? value : null;
    } catch {
      return null;
    }
  }

  record(caller: string, key: string): MirrorRecord | null {
    return this.read(join(this.partitionDir(caller), key), key);
  }

  /** Stores a skill's files and record in one swap: the old copy, if any, is replaced whole. */
  store(record: MirrorRecord, files: { path: string; bytes: Uint8Array }[]): void {
    const tree = files.map((f) => ({ path: `${FILES_DIR}/${f.path}`, bytes: f.bytes }));
    tree.push({ path: RECORD_FILE, bytes: Buffer.from(JSON.stringify(record, null, 2)) });
    writeTreeAtomic(this.partitionDir(record.caller), record.key, tree, { dir: 0o700, file: 0o600 });
  }

  /** Rewrites a record (its agent copies changed); the files stay. */
  rewrite(record: MirrorRecord): void {
    writeFileAtomic(join(this.skillDir(record), RECORD_FILE), Buffer.from(JSON.stringify(record, null, 2)));
  }

  /** Removes a skill from the mirror: renamed out of the way first, so a reader sees it whole or not at all. */
  remove(record: Pick<MirrorRecord, 'caller' | 'key'>): void {
    const dir = this.skillDir(record);
    if (!existsSync(dir)) return;
    const gone = join(this.partitionDir(record.caller), `${OLD_PREFIX}${record.key}`);
    renameSync(dir, gone);
    rmSync(gone, { recursive: true, force: true });
  }

  /**
   * The file's bytes when they are exactly what the record says (size and SHA-256), else null.
   * Read afresh on every call: nothing is trusted because it was checked before.
   */
  verifiedFile(record: MirrorRecord, path: string): Buffer | null {
    const entry = record.files.find((f) => f.path === path);
    if (entry === undefined) return null;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.skillDir(record), FILES_DIR, ...path.split('/')));
    } catch {
      return null;
    }
    return bytes.length === entry.size && sha256Hex(bytes) === entry.sha256 ? bytes : null;
  }

  /** Every file of the record, verified; null when any is missing or differs. */
  verifiedFiles(record: MirrorRecord): Map<string, Buffer> | null {
    const out = new Map<string, Buffer>();
    for (const f of record.files) {
      const bytes = this.verifiedFile(record, f.path);
      if (bytes === null) return null;
      out.set(f.path, bytes);
    }
    return out;
  }
}
