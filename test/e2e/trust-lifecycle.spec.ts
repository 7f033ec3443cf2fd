// The trust lifecycle and the import preview on the real options page (PRODUCT.md §5):
// the key history lists every key a site showed, a key revoked there is never accepted again
// for that site even after "forget", and an import shows what it adds and asks for the popup's
// confirmations before it imports an approval of an unverified, cross-host skill.
import { test, expect, send, waitForReport } from './support/extension';
import { startPublisher, seed } from './support/sites';
import { writeBackup } from '../../lib/store/backup/write';
import { DEFAULT_SETTINGS, type Approval, type OriginReport, type Pin, type Settings } from '../../lib/types';
import type { KeyHistoryEntry } from '../../lib/store/records';
import { encodeBase64 } from '../../lib/verify/base64';
import { fingerprint } from '../../lib/verify/fingerprint';

test('revoke a key in the options page: blocked, never pinned again even after forget', async ({ context, extPage, extensionId }) => {
  const site = await startPublisher({ seed: seed(21) });
  try {
    const page = await context.newPage();
    await page.goto(site.origin + '/');
    const first = await waitForReport<OriginReport>(extPage, site.origin);
    const oldFp = first.key.pinned?.fingerprint;
    if (!oldFp) throw new Error('nothing pinned');
    site.republish({ seed: seed(22) });
    const changed = await send<OriginReport>(extPage, { type: 'skillpin:probe', origin: site.origin });
    expect(changed.key.state).toBe('changed');
    const newFp = changed.key.offered?.fingerprint;
    if (!newFp) throw new Error('no offered key');

    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    const history = options.locator('[data-testid="key-history"]');
    const oldRow = history.locator(`tr[data-fingerprint-row="${oldFp}"]`);
    const newRow = history.locator(`tr[data-fingerprint-row="${newFp}"]`);
    await expect(oldRow).toHaveAttribute('data-state', 'pinned');
    await expect(newRow).toHaveAttribute('data-state', 'offered');
    // The fingerprint is shown in the grouped form used everywhere else.
    await expect(newRow.locator(`[data-fingerprint="${newFp}"] .fp-group`).first()).toBeVisible();

    // Revoke asks first; cancelling changes nothing.
    await newRow.getByRole('button', { name: /revoke/i }).click();
    const dialog = options.getByRole('alertdialog');
    await expect(dialog).toContainText('never accept this key again');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(newRow).toHaveAttribute('data-state', 'offered');
    await newRow.getByRole('button', { name: /revoke/i }).click();
    await options.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(newRow).toHaveAttribute('data-state', 'revoked');

    const revoked = await send<OriginReport>(extPage, { type: 'skillpin:probe', origin: site.origin });
    expect(revoked.key.state).toBe('revoked');
    expect(revoked.skills.every((s) => s.status === 'key-changed' && s.statusCode === 'key-revoked')).toBe(true);
    const refused = await send<{ ok: boolean; error?: string }>(extPage, { type: 'skillpin:trust-key', origin: site.origin, expectedFingerprint: oldFp, newFingerprint: newFp });
    expect(refused).toMatchObject({ ok: false, error: 'key-revoked' });

    // Forget the pin in the options page: the revoked key is still not pinned on the next visit.
    await options.locator(`[data-testid="pins"] tr[data-origin="${site.origin}"] [data-action="forget"]`).click();
    await options.getByRole('alertdialog').getByRole('button', { name: 'Forget' }).click();
    await expect(options.locator(`[data-testid="pins"] tr[data-origin="${site.origin}"]`)).toHaveCount(0);
    const afterForget = await send<OriginReport>(extPage, { type: 'skillpin:probe', origin: site.origin });
    expect(afterForget.key).toMatchObject({ state: 'revoked', pinned: null });
    expect(await send<Pin[]>(extPage, { type: 'skillpin:pins-list' })).toEqual([]);
    const kept = await send<KeyHistoryEntry[]>(extPage, { type: 'skillpin:key-history' });
    expect(kept.map((e) => [e.fingerprint, e.state])).toEqual([[newFp, 'revoked']]);

    // The revocation travels with the export.
    const { json } = await send<{ json: string }>(extPage, { type: 'skillpin:backup' });
    expect((JSON.parse(json) as { revocations: { fingerprint: string }[] }).revocations.map((r) => r.fingerprint)).toEqual([newFp]);
  } finally {
    await site.close();
  }
});

test('import shows what it adds and imports an unverified cross-host approval only once both confirmations are given', async ({ context, extPage, extensionId }) => {
  const keyBytes = new Uint8Array(32).map((_, i) => (i * 13 + 5) & 0xff);
  const pin: Pin = { origin: 'https://signed.example', key: encodeBase64(keyBytes), fingerprint: fingerprint(keyBytes), firstSeen: 1, lastSeen: 2 };
  const loose: Approval = {
    origin: 'https://loose.example',
    url: 'https://cdn.example.net/loose/SKILL.md',
    digestLf: 'a'.repeat(64),
    digestRaw: 'b'.repeat(64),
    keyFingerprint: null,
    statusAtApproval: 'unverified',
    name: 'loose-skill',
    approvedAt: 3,
  };
  const settings: Settings = { ...DEFAULT_SETTINGS, denyList: ['https://never.example'] };
  const json = writeBackup([pin], [loose], 10, { settings });
  const id = `${loose.origin} ${loose.url}`;

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  const importOnce = async (confirm: ('unverified' | 'cross-origin')[], settingsChange: boolean): Promise<void> => {
    await options.locator('#import-text').fill(json);
    await options.locator('[data-action="import"]').click();
    const preview = options.locator('[data-testid="import-preview"]');
    await expect(preview).toBeVisible();
    // Nothing is written before the user confirms.
    expect(await send<Approval[]>(extPage, { type: 'skillpin:approvals-list' })).toEqual([]);
    await expect(preview.locator(`[data-testid="import-preview-pins"] [data-fingerprint="${pin.fingerprint}"]`)).toBeVisible();
    // Only settings that would change are listed.
    if (settingsChange) await expect(preview.locator('[data-testid="import-preview-settings"] [data-field="denyList"]')).toContainText('https://never.example');
    else await expect(preview.locator('[data-testid="import-preview-settings"]')).toHaveCount(0);
    const row = preview.locator(`[data-approval-id="${id}"]`);
    await expect(row).toContainText('cdn.example.net');
    for (const kind of confirm) await row.locator(`[data-confirm="${kind}"]`).check();
    await preview.locator('[data-action="import-confirm"]').click();
    await expect(options.locator('[data-testid="import-result"]')).toBeVisible();
  };

  // One confirmation is not enough: the pin and settings come in, the approval does not.
  await importOnce(['cross-origin'], true);
  await expect(options.locator('[data-testid="import-skipped"] [data-reason="needs-confirmation"]')).toContainText(loose.url);
  expect(await send<Approval[]>(extPage, { type: 'skillpin:approvals-list' })).toEqual([]);
  expect((await send<Pin[]>(extPage, { type: 'skillpin:pins-list' })).map((p) => p.fingerprint)).toEqual([pin.fingerprint]);
  expect((await send<Settings>(extPage, { type: 'skillpin:settings-get' })).denyList).toEqual(['https://never.example']);

  // Both confirmations: the approval is imported.
  await importOnce(['unverified', 'cross-origin'], false);
  expect((await send<Approval[]>(extPage, { type: 'skillpin:approvals-list' })).map((a) => a.url)).toEqual([loose.url]);

  // A bad file: a clear error, no preview, nothing changed.
  const before = await send<Pin[]>(extPage, { type: 'skillpin:pins-list' });
  await options.locator('#import-text').fill(JSON.stringify({ format: 'skillpin-trust', version: 2, exportedAt: 1, pins: [{ origin: 'nope' }], approvals: [] }));
  await options.locator('[data-action="import"]').click();
  await expect(options.locator('#import-err')).toContainText('cannot be imported');
  await expect(options.locator('[data-testid="import-preview"]')).toHaveCount(0);
  expect(await send<Pin[]>(extPage, { type: 'skillpin:pins-list' })).toEqual(before);
});
