// The shared contracts of lib/, one file each: the injected I/O, the statuses, the kinds of document (DOCUMENTS), the diagnostic, the report
// contract of docs/report.md (OriginReport and every type it reaches), Settings, which the
// messages, the store and the backup file share (its one set of checks: lib/store/settings.ts), and
// the pins page, which the store, the background and the options page page and filter alike.
// The popup, the options page, the diagnostics export and the tests read OriginReport and nothing
// else.
//
// Everything else lives beside the module that produces it: the parsers' results in lib/parse/
// (candidate.ts, llms-txt.ts, index-json.ts, skill-md.ts, merge.ts), the fetch result in
// lib/net/fetch-result.ts, the digest check and the archive result in lib/verify/ (digest.ts,
// archive.ts), and the store records (key history, stored skills, probe cache) in
// lib/store/records.ts.

export * from './io';
export * from './statuses';
export * from './diagnostics';
export * from './documents';
export * from './verification';
export * from './trust';
export * from './report';
export * from './review';
export * from './pins-page';
