// docs/desktop.md's table of where each browser reads the native-messaging manifest is the table the
// program writes by (lib/desktop/protocol/browser-places.ts), row for row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/desktop';
import { browserPlacesTable } from '../../support/browser-places-table';

describe('docs/desktop.md, the manifest places', () => {
  it('lists every browser of lib/desktop/protocol/browser-places.ts with its Linux folder, macOS folder and Windows key', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'desktop.md'), 'utf8');
    const table = browserPlacesTable();
    expect(table).toContain('| Brave | `~/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/` |');
    expect(doc).toContain(`${table}\n`);
  });
});
