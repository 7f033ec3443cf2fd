// @vitest-environment happy-dom
// The line diff the popup shows for changed content, and its fallback to both versions in full.
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { diffRows, SkillDiff } from '../../../../components/shared/SkillDiff';
import { setMessageSource } from '../../../../lib/i18n';

setMessageSource(null);

describe('diffRows', () => {
  it('marks added and removed lines and folds long unchanged stretches', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n') + '\n';
    const next = old.replace('l10\n', 'L10\n');
    const rows = diffRows(old, next, 2) ?? [];
    expect(rows.filter((r) => r.kind === 'del')).toEqual([{ kind: 'del', text: 'l10', oldNo: 11, newNo: null }]);
    expect(rows.filter((r) => r.kind === 'add')).toEqual([{ kind: 'add', text: 'L10', oldNo: null, newNo: 11 }]);
    expect(rows[0]).toEqual({ kind: 'skip', count: 8 });
    expect(rows[rows.length - 1]).toEqual({ kind: 'skip', count: 7 });
  });
  it('treats CRLF and LF line content alike for display', () => {
    const rows = diffRows('a\r\nb\r\n', 'a\r\nc\r\n') ?? [];
    expect(rows.map((r) => (r.kind === 'skip' ? 'skip' : `${r.kind}:${r.text}`))).toEqual(['same:a', 'del:b', 'add:c']);
  });
  it('handles empty texts', () => {
    expect(diffRows('', '')).toEqual([]);
    expect(diffRows('', 'x')).toEqual([{ kind: 'add', text: 'x', oldNo: null, newNo: 1 }]);
  });
  it('gives up past the edit bound (a 256 KiB change in which every line differs): both versions are shown instead', () => {
    const line = (tag: string, i: number): string => `${tag} line ${i} ${'x'.repeat(40)}`;
    const lines = Math.ceil((256 * 1024) / 50);
    const old = Array.from({ length: lines }, (_, i) => line('old', i)).join('\n');
    const next = Array.from({ length: lines }, (_, i) => line('new', i)).join('\n');
    expect(next.length).toBeGreaterThanOrEqual(256 * 1024);
    // The bound is in edits, not in time: the answer is the same on any machine.
    expect(diffRows(old, next)).toBeNull();
    // Within the bound the diff is exact.
    expect(diffRows(old, old.replace(line('old', 7), line('new', 7)))?.filter((r) => r.kind !== 'skip' && r.kind !== 'same')).toHaveLength(2);
    expect(diffRows('a\nb\nc', 'x\ny\nz', 3, 2)).toBeNull();
  });
  it('the diff view shows both versions in full when the line diff gives up', () => {
    const old = Array.from({ length: 1500 }, (_, i) => `a${i}`).join('\n');
    const next = Array.from({ length: 1500 }, (_, i) => `b${i}`).join('\n');
    const host = document.createElement('div');
    render(<SkillDiff oldText={old} newText={next} />, host);
    expect(host.querySelector('[data-testid="diff-both"]')).not.toBeNull();
    expect(host.querySelector('[data-testid="diff-summary"]')?.textContent).toContain('both versions are shown in full');
    expect(Array.from(host.querySelectorAll('pre')).map((p) => p.textContent)).toEqual([old, next]);
    render(<SkillDiff oldText="a\nb" newText="a\nc" />, host);
    expect(host.querySelector('[data-testid="diff-both"]')).toBeNull();
    expect(host.querySelectorAll('[data-kind="add"]')).toHaveLength(1);
  });
});
