// Shown when the origin's publisher key is not the pinned one. The old and new
// fingerprints sit side by side with the dates the old key was seen; "Keep
// blocking" is the default, trusting the new key takes a second confirmation.
import { useState } from 'preact/hooks';
import type { KeyInfo, KeyReport, Pin } from '../../lib/types';
import { t, type MessageKey } from '../../lib/i18n';
import { Dialog } from './Dialog';
import { Fingerprint } from './Fingerprint';
import type { Announce } from './Announcer';
import type { Client } from './client';
import { errorText, formatDate, formatDuration } from './format';

interface Props {
  origin: string;
  keyReport: KeyReport;
  optionsUrl: string;
  busy: boolean;
  onTrust: (expectedFingerprint: string | null, newFingerprint: string) => void;
  onKeep: () => void;
}

/** Trusts the publisher key `next` in place of `expected` (PRODUCT.md, key change), says how it went, then `reload`s; a failure to ask is said with `failKey`. */
export async function trustKey(client: Client, announce: Announce, origin: string, expected: string | null, next: string, reload: () => Promise<void>, failKey: 'action_failed' | 'trust_failed') {
  try {
    const res = await client.trustKey(origin, expected, next);
    if (res.ok) announce(t('trusted_ok'), 'success');
    else announce(t('trust_failed', res.message ?? res.error ?? t('error_unknown')), 'error');
    await reload();
  } catch (err) {
    announce(t(failKey, errorText(err)), 'error');
  }
}

export function needsKeyBanner(key: KeyReport): boolean {
  return key.state === 'changed' || key.state === 'conflict' || key.state === 'stopped-signing' || key.state === 'revoked';
}

function PinnedColumn({ pin, byPolicy }: { pin: Pin; byPolicy: boolean }) {
  return (
    <div class="key-col" data-testid="key-old">
      <h3>{t('key_old')}</h3>
      <Fingerprint value={pin.fingerprint} label={t('key_old')} />
      {byPolicy ? (
        // The administrator's key was never seen in this browser: no dates, the source instead.
        <p class="hint" data-testid="key-pinned-by-policy">
          {t('policy_key_pinned')}
        </p>
      ) : (
        <dl class="facts compact">
          <dt>{t('first_seen')}</dt>
          <dd data-testid="first-seen">{formatDate(pin.firstSeen)}</dd>
          <dt>{t('last_seen')}</dt>
          <dd data-testid="last-seen">{formatDate(pin.lastSeen)}</dd>
          <dt>{t('in_use_for')}</dt>
          <dd>{formatDuration(pin.firstSeen, pin.lastSeen)}</dd>
        </dl>
      )}
    </div>
  );
}

function OfferedColumn({ info, heading }: { info: KeyInfo | null; heading: string }) {
  return (
    <div class="key-col" data-testid="key-new">
      <h3>{heading}</h3>
      {info ? (
        <>
          <Fingerprint value={info.fingerprint} label={heading} />
          <p class="hint">{info.source === 'index' ? t('key_from_index') : t('key_from_pub')}</p>
        </>
      ) : (
        <p>{t('key_none_offered')}</p>
      )}
    </div>
  );
}

/** The banner's title and body by the key's state; any other state is a changed key. */
const BANNER: Partial<Record<KeyReport['state'], [MessageKey, MessageKey]>> = {
  conflict: ['key_conflict_title', 'key_conflict_body'],
  'stopped-signing': ['key_stopped_title', 'key_stopped_body'],
  revoked: ['key_revoked_title', 'key_revoked_body'],
};

export function KeyBanner({ origin, keyReport, optionsUrl, busy, onTrust, onKeep }: Props) {
  const [confirming, setConfirming] = useState(false);
  const { state, pinned, offered, conflicting } = keyReport;
  const byPolicy = keyReport.pinnedBy === 'policy';
  const [title, body] = BANNER[state] ?? ['key_changed_title', 'key_changed_body'];
  // A key the administrator pinned is replaced only by the administrator (the background refuses too).
  const canTrust = state === 'changed' && offered !== null && !byPolicy;
  return (
    <section class="banner banner-bad" role="region" aria-labelledby="key-banner-title" data-testid="key-banner">
      <h2 id="key-banner-title">
        <span aria-hidden="true">✕ </span>
        {t(title)}
      </h2>
      <p>{t(body, origin)}</p>
      <div class="key-compare">
        {pinned ? <PinnedColumn pin={pinned} byPolicy={byPolicy} /> : state === 'conflict' ? <OfferedColumn info={conflicting} heading={t('key_second')} /> : null}
        <OfferedColumn info={offered} heading={state === 'conflict' ? t('key_first') : t('key_new')} />
        {pinned && state === 'conflict' && <OfferedColumn info={conflicting} heading={t('key_second')} />}
      </div>
      {byPolicy && (
        <p class="hint" data-testid="key-locked">
          {t('policy_key_locked')}
        </p>
      )}
      <details class="key-help">
        <summary>{t('key_help_summary')}</summary>
        <p>{t('key_help_benign')}</p>
        <p>{t('key_help_verify')}</p>
        {state === 'stopped-signing' && (
          <p>
            {t('key_help_forget')}{' '}
            <a href={optionsUrl} target="_blank" rel="noopener noreferrer">
              {t('open_settings')}
            </a>
          </p>
        )}
      </details>
      <div class="actions">
        <button type="button" class="btn-primary" onClick={onKeep} data-action="keep-blocking">
          {t('keep_blocking')}
        </button>
        {canTrust && (
          <button type="button" class="btn-danger" disabled={busy} onClick={() => setConfirming(true)} data-action="trust-key">
            {t('trust_new_key')}
          </button>
        )}
      </div>
      {confirming && offered && (
        <Dialog
          title={t('trust_confirm_title')}
          confirmLabel={t('trust_new_key')}
          cancelLabel={t('keep_blocking')}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            onTrust(pinned?.fingerprint ?? null, offered.fingerprint);
          }}
        >
          <p>{t('trust_confirm_body', origin)}</p>
          <Fingerprint value={offered.fingerprint} label={t('key_new')} />
        </Dialog>
      )}
    </section>
  );
}
