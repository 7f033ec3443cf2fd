// Desktop agents: how the mirror stands, and bringing it up to date now (docs/desktop.md). Turning
// the feature on or off, picking agent folders and confirming a skill for one are settings
// (settings-update); the mirror follows every such change (dispatch.ts).
import type { ServiceContext } from '../context';
import type { Slice } from './types';

export function desktopHandlers(ctx: ServiceContext): Slice<'desktop'> {
  return {
    'skillpin:desktop-status': async () => {
      await ctx.desktop.settled();
      return ctx.desktop.status();
    },
    'skillpin:desktop-check': async () => ctx.desktop.check(),
  };
}
