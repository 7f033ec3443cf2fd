// @vitest-environment happy-dom
// The pages' typed client: every request it sends passes the background's validator.
import { describe, expect, it } from 'vitest';
import { createClient, NoAnswerError } from '../../../../components/shared/client';
import { setMessageSource } from '../../../../lib/i18n';
import { parseRequest } from '../../../../lib/messages';

setMessageSource(null);

describe('client', () => {
  it('sends well-formed requests and returns the answer', async () => {
    const seen: unknown[] = [];
    const client = createClient(async (m) => {
      seen.push(m);
      return { ok: true };
    });
    await client.approve({ origin: 'https://a.example', url: 'https://a.example/S.md', digestLf: 'a'.repeat(64), confirmUnverified: false, confirmCrossOrigin: true });
    await client.trustKey('https://a.example', null, 'SHA256:x');
    await client.settingsGet();
    for (const m of seen) expect(parseRequest(m), JSON.stringify(m)).not.toBeNull();
  });
  it('report may be null; other requests must be answered', async () => {
    const client = createClient(async () => undefined);
    expect(await client.report('https://a.example')).toBeNull();
    await expect(client.probe('https://a.example')).rejects.toBeInstanceOf(NoAnswerError);
  });
});
