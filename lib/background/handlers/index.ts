// Every request type's handler, composed from the slices. The type Handlers requires one
// for each request type; Slice<C> (types.ts) allows each slice only its own.
import type { ServiceContext } from '../context';
import { approvalHandlers } from './approvals';
import { desktopHandlers } from './desktop';
import { keyHandlers } from './keys';
import { reportHandlers } from './reports';
import { settingsHandlers } from './settings';
import { transferHandlers } from './transfer';
import type { Handlers } from './types';

export function createHandlers(ctx: ServiceContext): Handlers {
  return {
    ...reportHandlers(ctx),
    ...approvalHandlers(ctx),
    ...keyHandlers(ctx),
    ...settingsHandlers(ctx),
    ...transferHandlers(ctx),
    ...desktopHandlers(ctx),
  };
}
