// The trust backup file (PRODUCT.md §5): pins, approvals, revoked keys and settings as JSON, written
// by write.ts, read and checked by read.ts, imported by import.ts after the preview (preview.ts)
// showed what it would do. This file names the format and the versions this Skillpin reads.

/** The `format` field of a backup file. */
export const BACKUP_FORMAT = 'skillpin-trust';
/**
 * 2 adds `revocations` and `settings`; 3 adds an archive approval's `archive` (the file set it binds,
 * FORMATS.md §6.6). Files of versions 1 and 2 are still read: their archive approvals bind no files
 * and stay suspended until the user approves again (PRODUCT.md §9.2).
 */
export const BACKUP_VERSION = 3;
/** The versions read.ts accepts. */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3];
