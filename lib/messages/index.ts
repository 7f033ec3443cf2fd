// Typed messages between the extension's contexts. The background validates every
// incoming message with parseRequest() and checks the sender before answering
// privileged ones (PRODUCT.md §6): only the extension's own pages may approve,
// pin, read skill bytes or export.
//
// One file each: requests.ts (the request map and the answers defined here), state-change.ts and
// table.ts (messageTable and the checks every incoming message passes).
export * from './requests';
export * from './state-change';
export * from './table';
export type { ArchiveFileChange } from '../verify/file-changes';
export type { ExportStatus } from '../export/record';

// The answers these modules give, defined beside them (they do not import this module).
export type { ImportResult, ImportSkipReason } from '../store/backup/import';
export type { ImportApprovalPreview, ImportPreview } from '../store/backup/preview';
export type { InsertResult } from '../chat/insert';

// Messages the background sends to content scripts and the offscreen document: each is defined
// beside its receiver (lib/chat/, lib/clipboard/), which does not import this module.
export type { ContentInsertMessage, ContentNoticeMessage } from '../chat/content-handler';
export type { OffscreenCopyMessage } from '../clipboard/offscreen';
