// The settings page never loses a change: one field applies on its own, an
// edit still pending elsewhere survives a save of another field, and what is pending is known.
import { describe, expect, it } from 'vitest';
import { afterSave, changedFields, fieldChange, toForm } from '../../../../components/options/settings-form';
import { DEFAULT_SETTINGS } from '../../../../lib/types';

const loaded = toForm(DEFAULT_SETTINGS);

describe('settings form: apply one field at once', () => {
  it('a tick is its own change, whatever is being typed elsewhere', () => {
    const form = { ...loaded, paused: true, denyList: 'not a site' };
    expect(fieldChange(form, loaded, 'paused')).toEqual({ changes: { paused: true }, error: null });
    expect(fieldChange(form, loaded, 'denyList').error).toContain('Line 1');
    expect(fieldChange(form, loaded, 'allowList')).toEqual({ changes: {}, error: null });
  });

  it('a list is parsed and sent alone', () => {
    const form = { ...loaded, chatSites: 'http://127.0.0.1:4000/chat\n', reviewers: '{ broken' };
    expect(fieldChange(form, loaded, 'chatSites')).toEqual({ changes: { chatSites: ['http://127.0.0.1:4000'] }, error: null });
  });

  it('after a save, the edits not sent are kept over what is stored', () => {
    const form = { ...loaded, paused: true, denyList: 'https://bank.example' };
    const stored = toForm({ ...DEFAULT_SETTINGS, paused: true, chatSites: ['https://chat.example'] });
    const next = afterSave(form, loaded, stored, ['paused']);
    expect(next).toEqual({ ...stored, denyList: 'https://bank.example' });
    expect(changedFields(next, stored)).toEqual(['denyList']);
    expect(changedFields(stored, stored)).toEqual([]);
  });
});
