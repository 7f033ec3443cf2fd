// The catalogue is well-formed, and the runner can tell a held case from a broken one.
import { describe, expect, it } from 'vitest';
import { ALL_CASES, browserCases, catalogueProblems, countByCategory } from '../../hostile/catalogue';
import { runCase } from '../../hostile/node/run-case';
import { startHostileServer } from '../../hostile/server';
import { indexSite, markdown, skillText } from '../../hostile/site-kit';
import { CATEGORIES, TRAP_PREFIX, type HostileCase } from '../../hostile/types';

describe('hostile case catalogue', () => {
  it('has unique kebab-case ids, one of site/scenario each, and browser checks where needed', () => {
    expect(catalogueProblems()).toEqual([]);
  });

  it('holds at least 80 cases, covers every category, and marks at least 20 for the browser', () => {
    expect(ALL_CASES.length).toBeGreaterThanOrEqual(80);
    const counts = countByCategory();
    for (const c of CATEGORIES) expect(counts[c], c).toBeGreaterThan(0);
    expect(browserCases().length).toBeGreaterThanOrEqual(20);
  });

  it('catches duplicate ids and malformed ids', () => {
    const base = ALL_CASES[0] as HostileCase;
    expect(catalogueProblems([base, base])).toContain(`${base.id}: duplicate id`);
    expect(catalogueProblems([{ ...base, id: 'Not_Kebab' }])[0]).toMatch(/kebab/);
  });
});

describe('hostile runner self-checks', () => {
  const good = (): ReturnType<typeof indexSite> => indexSite([{ name: 'ok' }]);

  it('passes a case whose expectation holds', async () => {
    const r = await runCase({ id: 'self-good', category: 'content', title: 't', site: () => ({ stages: [good()] }), expected: { skillStatuses: { ok: 'verified' } } });
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
    expect(r.observed).toBe(r.expected);
  });

  it('fails a case whose observed status differs from the expected one', async () => {
    const r = await runCase({ id: 'self-wrong', category: 'content', title: 't', site: () => ({ stages: [good()] }), expected: { skillStatuses: { ok: 'digest-mismatch' } } });
    expect(r.pass).toBe(false);
    expect(r.observed).toContain('ok=verified');
    expect(r.expected).toContain('ok=digest-mismatch');
  });

  it('reports a trap URL that was requested', async () => {
    const stage = good();
    // A redirect onto a trap path: the engine follows same-origin redirects, so the trap is hit.
    stage.paths['/skills/ok/SKILL.md'] = { kind: 'redirect', status: 302, location: `${TRAP_PREFIX}ok.md` };
    const r = await runCase({ id: 'self-trap', category: 'content', title: 't', site: () => ({ stages: [stage] }), expected: { skillStatuses: { ok: 'fetch-failed' } } });
    expect(r.pass).toBe(false);
    expect(r.problems.join(' ')).toMatch(/trap URLs requested/);
  });

  it('reports a request that left the test network', async () => {
    const stage = indexSite([{ name: 'far', path: 'https://elsewhere.example/SKILL.md' }]);
    const r = await runCase({ id: 'self-stray', category: 'content', title: 't', origin: 'loopback', site: () => ({ stages: [stage] }), expected: { skillStatuses: { far: 'fetch-failed' } } });
    expect(r.pass).toBe(false);
    expect(r.problems.join(' ')).toMatch(/left the test network: https:\/\/elsewhere\.example\/SKILL\.md/);
  });

  it('fails a custom check that finds a problem', async () => {
    const r = await runCase({
      id: 'self-custom',
      category: 'content',
      title: 't',
      site: () => ({ stages: [good()] }),
      expected: { custom: { text: 'always fails', check: () => 'broken on purpose' } },
    });
    expect(r.pass).toBe(false);
    expect(r.observed).toContain('broken on purpose');
  });
});

describe('hostile server', () => {
  it('plays stages, drips, truncation and gzip, and logs trap hits', async () => {
    const body = skillText('s');
    const served = await startHostileServer({
      stages: [
        { paths: { '/a': markdown('stage zero'), '/gz': markdown(body, { encoding: 'gzip' }) } },
        { paths: { '/a': markdown('stage one'), '/cut': { kind: 'truncated', body: 'abc', declaredLength: 100 } } },
      ],
    });
    try {
      expect(await (await fetch(served.origin + '/a')).text()).toBe('stage zero');
      const gz = await fetch(served.origin + '/gz');
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(await gz.text()).toBe(body);
      served.setStage(1);
      expect(await (await fetch(served.origin + '/a')).text()).toBe('stage one');
      await expect((await fetch(served.origin + '/cut')).arrayBuffer()).rejects.toThrow();
      expect((await fetch(served.origin + '/never/x')).status).toBe(404);
      expect(served.trapHits().map((t) => t.path)).toEqual(['/never/x']);
      expect(() => served.setStage(2)).toThrow();
    } finally {
      await served.close();
    }
  });
});
