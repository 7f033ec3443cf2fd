// The install command the options page shows names the exact program version, never "latest".
import { describe, expect, it } from 'vitest';
import { installCommand } from '../../../lib/desktop/install-command';
import { compareVersions, HOST_PACKAGE_VERSION, MIN_HOST_VERSION } from '../../../lib/desktop/protocol/limits';
import { HOST_VERSION } from '../../../host/version';

describe('installCommand', () => {
  it('pins the version this extension was built with, and the Chrome id', () => {
    expect(installCommand('chrome', 'abcdefghijklmnopabcdefghijklmnop')).toBe(`npx skillpin@${HOST_PACKAGE_VERSION} install-host --chrome-id abcdefghijklmnopabcdefghijklmnop`);
    expect(installCommand('firefox', 'skillpin@skillpin.dev')).toBe(`npx skillpin@${HOST_PACKAGE_VERSION} install-host`);
    expect(installCommand('chrome', 'x')).not.toContain('latest');
  });

  it('the version is the host program’s, and satisfies the extension’s minimum', () => {
    expect(HOST_VERSION).toBe(HOST_PACKAGE_VERSION);
    expect(compareVersions(HOST_PACKAGE_VERSION, MIN_HOST_VERSION)).toBeGreaterThanOrEqual(0);
  });
});
