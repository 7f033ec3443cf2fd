// A SKILL.md whose frontmatter block cannot be read (over the parse cap, a duplicate key, YAML that
// does not parse) is taken as asking for tools (PRODUCT.md §6.1: the check fails closed): the popup's
// "asks for tools" flag stays, and what it grants is never read as nothing.
import { describe, expect, it } from 'vitest';
import { probeOrigin } from '../../../lib/probe/probe-origin';
import { harness } from '../../support/engine-harness';
import { buildSite, keyPair } from '../../support/signed-sites';
import { serversClosedAfterEach } from '../../support/test-servers';

const K = keyPair(31);
const startTestServer = serversClosedAfterEach();

const CASES: Record<string, string> = {
  'a duplicate key': '---\nname: alpha\ndescription: d\nallowed-tools: Bash(*)\nallowed-tools: Read\n---\n\n# alpha\n',
  'a frontmatter over the parse cap': `---\nname: alpha\ndescription: d\nallowed-tools: Bash(*)\nnotes: "${'x'.repeat(17 * 1024)}"\n---\n\n# alpha\n`,
  'YAML that does not parse': '---\nname: alpha\ndescription: [unclosed\nallowed-tools: Bash(*)\n---\n\n# alpha\n',
  'a block never closed': '---\nname: alpha\ndescription: d\nallowed-tools: Bash(*)\n\n# alpha\n',
};

describe('an unreadable frontmatter fails closed', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`${name}: the skill is flagged as asking for tools`, async () => {
      const s = await startTestServer({ files: buildSite({ skills: [{ name: 'alpha', text }], key: K }) });
      const h = await harness();
      const r = await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store: h.store, clock: h.clock, settings: h.settings });
      const skill = r.skills[0];
      expect(skill?.status).toBe('verified-signed');
      expect(skill?.advisory.map((f) => f.code)).toContain('declares-tools');
    });
  }

  it('a readable frontmatter without grants is not flagged', async () => {
    const s = await startTestServer({ files: buildSite({ skills: [{ name: 'alpha' }], key: K }) });
    const h = await harness();
    const r = await probeOrigin(s.origin, { fetch: (u, i) => fetch(u, i), store: h.store, clock: h.clock, settings: h.settings });
    expect(r.skills[0]?.advisory.map((f) => f.code)).not.toContain('declares-tools');
  });
});
