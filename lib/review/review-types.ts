// The review's inputs (lib/review/index.ts), apart so every rule module can take them.

/** One file of a skill: SKILL.md at the root, and for an archive every other regular file. */
export interface ReviewFile {
  path: string;
  bytes: Uint8Array;
}

export interface ReviewOptions {
  /** The publishing origin (links to other origins are judged against it). */
  origin: string;
}
