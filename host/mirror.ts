// The mirror on disk (docs/desktop.md): for each browser profile that hands skills over, a folder of
// skills, each a folder named by its key holding `record.json` (the approved facts, every file's
// digest and size, the agent copies written) and `files/` (the files exactly as approved).
// Only the host writes here; the MCP server only reads, and checks every file against the record
// before serving it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentId, isAgentId } from '../lib/desktop/protocol/limits';
import type { SkillFacts, WireFile } from '../lib/desktop/protocol/wire';
import { clearLeftovers, namesIn, OLD_PREFIX, readJson, writeFileAtomic, writeTreeAtomic } from './atomic';
import { HOST_VERSION } from './version';

/** SHA-256 in hex of the bytes, or of a string's UTF-8. */
export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

export const RECORD_FILE = 'record.json';
export const FILES_DIR = 'files';
const KEY = /^[0-9a-f]{64}$/;
const PARTITION = /^[0-9a-f]{16}$/;

export type RecordFile = Omit<WireFile, 'data'>;

export interface MirrorRecord extends SkillFacts {
  format: 1;
  key: string;
  /** The extension that handed it over (`chrome-extension://<id>/` or a Firefox add-on id). */
  caller: string;
  /** The browser profile that handed it over (its id, kept in the profile's storage); absent in records written before profiles had ids. */
  profile?: string | null;
  /** The partition this record was adopted from (a mirror written before profiles had ids): copies whose provenance names it are this record's too. */
  formerPartition?: string;
  /** The revision the user confirmed for the skill as a whole (the MCP server serves a skill needing confirmation only with it). */
  confirmedRevision?: string | null;
  revision: string;
  files: RecordFile[];
  storedAt: number;
  /** The agent-folder copies the host wrote for this skill. */
  agents: { agent: AgentId; folder: string }[];
}

/**
 * The folder of one browser profile's part of the mirror: 16 hex digits of SHA-256 of the caller
 * and the profile id; without a profile id (an extension from before profiles had one, and every
 * mirror it wrote), of the caller alone.
 */
export function partitionOf(caller: string, profile: string | null = null): string {
  return sha256Hex(profile === null ? caller : `${caller}\n${profile}`).slice(0, 16);
}

export const partitionOfRecord = (r: Pick<MirrorRecord, 'caller' | 'profile'>): string => partitionOf(r.caller, r.profile ?? null);

/** The partitions the records were adopted from (formerPartition). */
export const formerPartitions = (records: readonly MirrorRecord[]): string[] => records.flatMap((r) => (r.formerPartition !== undefined ? [r.formerPartition] : []));

/**
 * The rules agent copies are judged by are this program's (its paths, grants and confirmation
 * rules): a partition last judged by another version of the program is judged again on its next
 * sync (host/rejudge.ts).
 */
const RULES_FILE = 'rules.json';

function isRecord(value: unknown, key: string): value is MirrorRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    r.format === 1 &&
    r.key === key &&
    typeof r.caller === 'string' &&
    (r.profile === undefined || r.profile === null || typeof r.profile === 'string') &&
    (r.formerPartition === undefined || typeof r.formerPartition === 'string') &&
    (r.confirmedRevision === undefined || r.confirmedRevision === null || typeof r.confirmedRevision === 'string') &&
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

  partitionDir(partition: string): string {
    return join(this.root, partition);
  }

  skillDir(record: Pick<MirrorRecord, 'caller' | 'profile' | 'key'>): string {
    return join(this.partitionDir(partitionOfRecord(record)), record.key);
  }

  /** Creates the partition's folder (only the user may read it) and clears what a crashed write left. */
  prepare(partition: string): void {
    mkdirSync(this.partitionDir(partition), { recursive: true, mode: 0o700 });
    clearLeftovers(this.partitionDir(partition));
  }

  /**
   * A profile's first sync adopts what its extension wrote before profiles had ids: the caller's
   * old partition becomes this profile's, when this profile holds nothing yet. Later profiles start
   * empty. Copies in agent folders keep naming the old partition until they are written again;
   * each record notes it (formerPartition) so they stay recognised as the host's own.
   */
  adoptLegacy(caller: string, profile: string): void {
    const legacy = partitionOf(caller);
    const mine = partitionOf(caller, profile);
    if (!existsSync(this.partitionDir(legacy))) return;
    if (this.records(mine).length > 0 || this.records(legacy).length === 0) return;
    rmSync(this.partitionDir(mine), { recursive: true, force: true });
    renameSync(this.partitionDir(legacy), this.partitionDir(mine));
    for (const key of readdirSync(this.partitionDir(mine)).filter((n) => KEY.test(n))) {
      const old = this.read(join(this.partitionDir(mine), key), key);
      if (old !== null && old.caller === caller) this.rewrite({ ...old, profile, formerPartition: legacy });
    }
  }

  /** The records of one partition, or of every partition; a folder whose record is unreadable or belongs elsewhere is skipped. */
  records(partition?: string): MirrorRecord[] {
    const parts = partition === undefined ? this.partitions() : [partition];
    return parts.flatMap((part) => {
      const keys = namesIn(this.partitionDir(part)).filter((n) => KEY.test(n));
      return keys.sort().flatMap((key) => this.record(part, key) ?? []);
    });
  }

  /** The partition folders the mirror has. */
  partitions(): string[] {
    return namesIn(this.root)
      .filter((n) => PARTITION.test(n))
      .sort();
  }

  /** True when the partition's copies were last judged by this version of the program (never, for a partition a host before 1.1.0 wrote). */
  judgedByThisVersion(partition: string): boolean {
    return (readJson(join(this.partitionDir(partition), RULES_FILE)) as { host?: unknown } | null)?.host === HOST_VERSION;
  }

  markJudged(partition: string): void {
    writeFileAtomic(join(this.partitionDir(partition), RULES_FILE), Buffer.from(JSON.stringify({ host: HOST_VERSION })));
  }

  private read(dir: string, key: string): MirrorRecord | null {
    const value = readJson(join(dir, RECORD_FILE));
    return isRecord(value, key) ? value : null;
  }

  record(partition: string, key: string): MirrorRecord | null {
    const r = this.read(join(this.partitionDir(partition), key), key);
    return r !== null && partitionOfRecord(r) === partition ? r : null;
  }

  /** Stores a skill's files and record in one swap: the old copy, if any, is replaced whole. */
  store(record: MirrorRecord, files: ReadonlyMap<string, Uint8Array>): void {
    const tree = [...files].map(([path, bytes]) => ({ path: `${FILES_DIR}/${path}`, bytes }));
    tree.push({ path: RECORD_FILE, bytes: Buffer.from(JSON.stringify(record, null, 2)) });
    writeTreeAtomic(this.partitionDir(partitionOfRecord(record)), record.key, tree, { dir: 0o700, file: 0o600 });
  }

  /** Rewrites a record (its agent copies changed); the files stay. */
  rewrite(record: MirrorRecord): void {
    writeFileAtomic(join(this.skillDir(record), RECORD_FILE), Buffer.from(JSON.stringify(record, null, 2)));
  }

  /** Removes a skill from the mirror: renamed out of the way first, so a reader sees it whole or not at all. */
  remove(record: Pick<MirrorRecord, 'caller' | 'profile' | 'key'>): void {
    const dir = this.skillDir(record);
    if (!existsSync(dir)) return;
    const gone = join(this.partitionDir(partitionOfRecord(record)), `${OLD_PREFIX}${record.key}`);
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
