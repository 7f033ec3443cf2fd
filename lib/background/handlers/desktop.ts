// Desktop agents: how the mirror stands, and bringing it up to date now (docs/desktop.md). Turning
// the feature on or off, picking agent folders and confirming a skill for one are settings
// (settings-update); the mirror follows every such change (dispatch.ts).
import type { WorkerState } from '../worker-state';
import type { Slice } from './types';

export function desktopHandlers(worker: WorkerState): Slice<'desktop'> {
  return {
    'skillpin:desktop-status': async () => {
      await worker.desktop.settled();
      return worker.desktop.status();
    },
    'skillpin:desktop-check': async () => worker.desktop.check(),
  };
}
