// Every request type's handler, composed from the slices. The type Handlers requires one
// for each request type; Slice<C> (types.ts) allows each slice only its own.
import type { WorkerState } from '../worker-state';
import { approvalHandlers } from './approvals';
import { desktopHandlers } from './desktop';
import { keyHandlers } from './keys';
import { reportHandlers } from './reports';
import { settingsHandlers } from './settings';
import { transferHandlers } from './transfer';
import type { Handlers } from './types';

export function createHandlers(worker: WorkerState): Handlers {
  return {
    ...reportHandlers(worker),
    ...approvalHandlers(worker),
    ...keyHandlers(worker),
    ...settingsHandlers(worker),
    ...transferHandlers(worker),
    ...desktopHandlers(worker),
  };
}
