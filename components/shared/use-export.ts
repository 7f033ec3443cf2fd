// "Export for upload" from an extension page: asks the background for the ZIP of an
// approved skill, saves it through a download the user's click starts, and keeps the list of
// recorded exports so the page can say when an exported copy is out of date.
import { useCallback, useState } from 'preact/hooks';
import type { ExportStatus } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { useAnnounce, useBusy } from './Announcer';
import type { Client } from './client';
import { useLive } from './use-list';
import { base64Bytes, saveFile as defaultSave, type SaveFile } from './save-file';

export type SkillExporter = ReturnType<typeof useSkillExport>;

const keyOf = (origin: string, url: string) => `${origin} ${url}`;

/**
 * `onUnconfirmed`: the gate refused the export for findings the user has not confirmed (its message
 * given); the page offers the confirmation.
 */
export function useSkillExport(client: Client, save: SaveFile = defaultSave, onUnconfirmed?: (origin: string, url: string, message: string) => void) {
  const announce = useAnnounce();
  const [exports, setExports] = useState<ExportStatus[]>([]);
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const { busy, run: whileBusy } = useBusy();
  const [seq, setSeq] = useState(0);

  useLive([client, seq], (live) => {
    client.exportsList().then(
      (list) => live() && setExports(Array.isArray(list) ? list : []),
      // Without the list nothing is marked; exporting still works.
      () => undefined,
    );
  });

  const reload = useCallback(() => setSeq((n) => n + 1), []);

  const run = (origin: string, url: string) =>
    whileBusy(async () => {
      const key = keyOf(origin, url);
      const res = await client.skillExport(origin, url);
      if (!res.ok && res.error === 'needs-confirmation' && onUnconfirmed) {
        onUnconfirmed(origin, url, res.message);
        return;
      }
      if (!res.ok) {
        setProblems((p) => ({ ...p, [key]: res.problems.length > 0 ? res.problems : [res.message] }));
        announce(res.problems.length > 0 ? `${t('export_refused')} ${res.problems.join(' ')}` : t('upload_export_failed', res.message), 'error');
        return;
      }
      const bytes = base64Bytes(res.zipBase64);
      if (!bytes) throw new Error(t('err_zip_unreadable'));
      setProblems((p) => {
        const { [key]: _gone, ...rest } = p;
        return rest;
      });
      save(res.filename, bytes, 'application/zip');
      announce(t('upload_export_saved', res.filename), 'success');
      reload();
    }, 'upload_export_failed');

  return {
    /** The recorded export of (origin, url), or null. */
    exportOf: (origin: string, url: string): ExportStatus | null => exports.find((e) => e.origin === origin && e.url === url) ?? null,
    /** Why the last export of (origin, url) was refused: one sentence per broken rule. */
    problemsOf: (origin: string, url: string): string[] | null => problems[keyOf(origin, url)] ?? null,
    run,
    reload,
    busy,
  };
}
