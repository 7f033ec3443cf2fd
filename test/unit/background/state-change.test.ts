// The worker's marker of the last change of trust state or settings (lib/background/state-change.ts).
import { describe, expect, it } from 'vitest';
import { changeMarker } from '../../../lib/background/state-change';

describe('changeMarker', () => {
  it("starts at the worker's start and moves only when marked", () => {
    let now = 100;
    const marker = changeMarker({ now: () => now });
    expect(marker.at()).toBe(100);
    now = 250;
    expect(marker.at()).toBe(100);
    marker.mark();
    expect(marker.at()).toBe(250);
    now = 300;
    expect(marker.at()).toBe(250);
  });
});
