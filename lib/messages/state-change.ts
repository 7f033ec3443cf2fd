// The note the background writes to storage when settings or trust state changed, so open pages follow.
/**
 * Extension pages learn of changes made elsewhere (another tab, an import of pins and approvals) from this
 * storage.local key: the background writes a new StateChange after every change of settings
 * or trust state, and after a probe whose report lists approved skills, and pages listen with storage.onChanged (which fires only on a new value,
 * hence the sequence number).
 */
export const STATE_CHANGE_KEY = 'skillpin:state-change';
/** `reports`: a probe changed what the pages show of an approved skill (no request changed anything). */
export type StateChangeKind = 'settings' | 'trust' | 'reports';
export interface StateChange {
  kind: StateChangeKind;
  seq: number;
  at: number;
}

/** The change a storage value describes, or null when it is not one. */
export function parseStateChange(v: unknown): StateChange | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const c = v as Record<string, unknown>;
  if (c.kind !== 'settings' && c.kind !== 'trust' && c.kind !== 'reports') return null;
  if (typeof c.seq !== 'number' || typeof c.at !== 'number') return null;
  return { kind: c.kind, seq: c.seq, at: c.at };
}
