import { describe, expect, it } from 'vitest';
import { findPlaceholder, resolveArtifactUrl } from '../../../lib/parse/resolve-url';
import { INDEX_URL, LLMS_URL, ORIGIN } from './helpers';

function code(raw: string, base = LLMS_URL, origin = ORIGIN): string {
  const r = resolveArtifactUrl(raw, base, origin);
  return r.ok ? 'ok' : r.code;
}

describe('resolveArtifactUrl', () => {
  it('resolves root-relative, relative and absolute URLs against the document URL', () => {
    expect(resolveArtifactUrl('/skills/a/SKILL.md', LLMS_URL, ORIGIN)).toEqual({ ok: true, url: 'https://example.test/skills/a/SKILL.md' });
    expect(resolveArtifactUrl('./worktrunk/SKILL.md', INDEX_URL, ORIGIN)).toEqual({
      ok: true,
      url: 'https://example.test/.well-known/agent-skills/worktrunk/SKILL.md',
    });
    expect(resolveArtifactUrl('https://cdn.example.org/x.zip', LLMS_URL, ORIGIN)).toEqual({ ok: true, url: 'https://cdn.example.org/x.zip' });
  });
  it('removes the fragment, including an empty one', () => {
    expect(resolveArtifactUrl('/a/SKILL.md#top', LLMS_URL, ORIGIN)).toEqual({ ok: true, url: 'https://example.test/a/SKILL.md' });
    expect(resolveArtifactUrl('/a/SKILL.md?v=1#', LLMS_URL, ORIGIN)).toEqual({ ok: true, url: 'https://example.test/a/SKILL.md?v=1' });
  });
  it('refuses an empty URL', () => expect(code('')).toBe('url-empty'));
  it('refuses whitespace, control characters and backslashes', () => {
    expect(code('/a b/SKILL.md')).toBe('url-bad-char');
    expect(code('/a\tb')).toBe('url-bad-char');
    expect(code('/a\u0000b')).toBe('url-bad-char');
    expect(code('/a\u007fb')).toBe('url-bad-char');
    expect(code('/a\u00a0b')).toBe('url-bad-char');
    expect(code('/a\\b/SKILL.md')).toBe('url-bad-char');
  });
  it('refuses unexpanded template placeholders', () => {
    expect(code('__PUBLIC_ORIGIN__/.well-known/agent-skills/quickstart/SKILL.md')).toBe('url-placeholder');
    expect(code('/skills/__NAME__/SKILL.md')).toBe('url-placeholder');
    expect(code('/skills/{{name}}/SKILL.md')).toBe('url-placeholder');
    expect(code('${BASE}/SKILL.md')).toBe('url-placeholder');
  });
  it('does not mistake ordinary underscores or braces for placeholders', () => {
    expect(code('/skills/my__skill/SKILL.md')).toBe('ok');
    expect(code('/skills/search_knowledge/SKILL.md')).toBe('ok');
    expect(code('/skills/a{b}/SKILL.md')).toBe('ok');
    expect(findPlaceholder('/__lower__/x')).toBeNull();
  });
  it('applies the artifact scheme and host rules', () => {
    expect(code('javascript:alert(1)')).toBe('url-scheme');
    expect(code('data:text/plain,hi')).toBe('url-scheme');
    expect(code('file:///etc/passwd')).toBe('url-scheme');
    expect(code('https://user:pw@example.test/SKILL.md')).toBe('url-credentials');
    expect(code('http://example.test/SKILL.md')).toBe('url-downgrade');
    expect(code('https://127.0.0.1/SKILL.md')).toBe('url-private-target');
    expect(code('https://printer.local/SKILL.md')).toBe('url-private-target');
  });
  it('lets a loopback origin point at loopback hosts', () => {
    expect(code('/SKILL.md', 'http://127.0.0.1:8080/llms.txt', 'http://127.0.0.1:8080')).toBe('ok');
  });
  it('refuses a URL that cannot be parsed', () => {
    expect(code('https://[::1/x')).toBe('url-unparseable');
  });
  it('is linear on long hostile input', () => {
    expect(code(`/${'__a'.repeat(300_000)}`)).toBe('ok');
    expect(code(`/__${'A_'.repeat(500_000)}A__/SKILL.md`)).toBe('url-placeholder');
    expect(code(`/${'{{'.repeat(200_000)}`)).toBe('ok');
  });
});
