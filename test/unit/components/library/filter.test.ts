import { describe, expect, it } from 'vitest';
import { filterEntries, groupBySite, libraryIndex, queryWords } from '../../../../components/library/filter';
import type { ApprovedSkillSummary } from '../../../../lib/messages';

const item = (origin: string, name: string, description: string | null): ApprovedSkillSummary => ({
  origin,
  url: `${origin}/${name}/SKILL.md`,
  name,
  status: 'verified',
  usable: true,
  approvedAt: 1,
  description,
  verifiedAt: 1,
  size: 10,
  tokens: 3,
  attention: null,
  refusal: null,
});

const LIST = [
  item('https://docs.example.com', 'Search Docs', 'Cite pages of the manual.'),
  item('https://docs.example.com', 'release-notes', null),
  item('http://127.0.0.1:8080', 'Übersetzen', 'Translate text.'),
];
const names = (query: string) => filterEntries(libraryIndex(LIST), query).map((e) => e.item.name);

describe('the library filter', () => {
  it('matches every word in the name, the description or the site, ignoring case', () => {
    expect(names('')).toEqual(['Search Docs', 'release-notes', 'Übersetzen']);
    expect(names('   ')).toHaveLength(3);
    expect(names('search')).toEqual(['Search Docs']);
    expect(names('MANUAL')).toEqual(['Search Docs']);
    expect(names('docs.example')).toEqual(['Search Docs', 'release-notes']);
    expect(names('127.0.0.1:8080')).toEqual(['Übersetzen']);
    expect(names('docs notes')).toEqual(['release-notes']);
    expect(names('übersetzen')).toEqual(['Übersetzen']);
    expect(names('docs translate')).toEqual([]);
  });

  it('splits a query on any white space', () => {
    expect(queryWords('  a\tB \n c ')).toEqual(['a', 'b', 'c']);
  });

  it('groups consecutive skills of one site and names the site by its host', () => {
    const groups = groupBySite(libraryIndex(LIST));
    expect(groups.map((g) => [g.host, g.entries.length])).toEqual([
      ['docs.example.com', 2],
      ['127.0.0.1:8080', 1],
    ]);
  });
});
