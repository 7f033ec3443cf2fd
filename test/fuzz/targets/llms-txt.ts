// parseLlmsTxt (FORMATS.md §1): documents of near-valid lines: headings that almost say
// `## Skills`, code fences, list items with hostile titles, URLs, separators and
// `<!-- skill: … -->` comments holding odd JSON.
import fc from 'fast-check';
import { splitLines, decodeUtf8 } from '../../../lib/parse/decode';
import { parseLlmsTxt } from '../../../lib/parse/llms-txt';
import { hex64, jsonText, oddKey, oddValue } from '../arbitraries/json';
import { base, rawUrl } from '../arbitraries/url';
import { hostileText, joinLines, textBytes, word } from '../arbitraries/text';
import { checkCandidate, checkDiagnostics } from '../invariants';
import { call, check, seen, type FuzzTarget } from '../types';

const heading = fc.constantFrom(
  '## Skills',
  '## Skills',
  '##Skills',
  '## Skills ##',
  ' ## Skills',
  '   ## Skills',
  '    ## Skills',
  '## skills',
  '## SKILLS',
  '# Skills',
  '### Skills',
  '## Skills and more',
  '## Skills\t',
  '## Other',
  '#',
  '##',
  '## ',
  'Skills',
  '---',
  '===',
);
const fence = fc.constantFrom('```', '```', '~~~', '````', '   ```js', '    ```', '``', '~~~~ x', '```` ```');
const bullet = fc.constantFrom('- ', '- ', '* ', '+ ', '-', '  - ', '    - ', '1. ', '-\t', '- - ', '> - ');
const separator = fc.constantFrom(': ', ': ', ' - ', ' – ', ' — ', '', ' ', '::', 'x', ' -', ':');

const commentMeta = fc.dictionary(
  fc.oneof(fc.constantFrom('sha256', 'sha256', 'scope', 'tool', 'tool_sha256', 'version', 'license', 'homepage', 'requires'), oddKey),
  fc.oneof(hex64, oddValue, rawUrl),
  { maxKeys: 5 },
);
const comment = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: jsonText(commentMeta).map((j) => ` <!-- skill: ${j} -->`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('<!-- skill:', '<!--skill:', '<!-- SKILL:', '<!-- skill: ', '<!-- '), hostileText(4), fc.constantFrom(' -->', '-->', '', ' --> tail', ' -->-->'))
      .map(([a, b, c]) => ` ${a}${b}${c}`),
  },
);

const title = fc.oneof(
  { weight: 3, arbitrary: word },
  { weight: 2, arbitrary: hostileText(4) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '[nested](x)', 'a]b', 'a\\]b', '`code`', '![img](x)') },
);
const linkUrl = fc.oneof({ weight: 4, arbitrary: rawUrl }, { weight: 1, arbitrary: rawUrl.map((u) => `<${u}>`) }, { weight: 1, arbitrary: rawUrl.map((u) => `${u} "title"`) });

const item = fc
  .record({ bullet, title, url: linkUrl, sep: separator, description: fc.oneof(word, hostileText(4)), comment, close: fc.constantFrom(')', ')', ')', '', '))', ')]') })
  .map((p) => `${p.bullet}[${p.title}](${p.url}${p.close}${p.sep}${p.description}${p.comment}`);

const line = fc.oneof(
  { weight: 6, arbitrary: item },
  { weight: 2, arbitrary: heading },
  { weight: 1, arbitrary: fence },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: hostileText(8) },
  { weight: 1, arbitrary: rawUrl.map((u) => `- ${u}`) },
);

const document = joinLines(line, 14);

export const llmsTxtTarget: FuzzTarget = {
  id: 'llms-txt',
  entry: 'parseLlmsTxt (lib/parse/llms-txt.ts)',
  inputs: 'llms.txt documents of near-valid lines: near-miss headings, fences, hostile list items, URLs and skill comments with odd JSON; mixed line ends, BOM, byte edits',
  property: () =>
    fc.property(textBytes(document), base, (bytes, b) => {
      const parsed = call('parseLlmsTxt', () => parseLlmsTxt(bytes, b.finalUrl, b.origin));
      const lineCount = splitLines(decodeUtf8(bytes)).length;
      check(typeof parsed.hasSkillsSection === 'boolean', 'hasSkillsSection is not a boolean');
      check(parsed.candidates.length <= lineCount, `${parsed.candidates.length} candidates from ${lineCount} lines`);
      check(parsed.hasSkillsSection || parsed.candidates.length === 0, 'candidates without a ## Skills section');
      checkDiagnostics(parsed.diagnostics, 'llms.txt', lineCount);
      for (const d of parsed.diagnostics) seen(d.code);
      let previous = 0;
      for (const c of parsed.candidates) {
        const where = `llms.txt line ${c.position}`;
        check(c.source === 'llms-txt', `${where}: source ${c.source}`);
        check(Number.isInteger(c.position) && c.position > previous && c.position <= lineCount, `${where}: out of document order or range`);
        previous = c.position;
        checkCandidate(c, b.origin, where, lineCount);
        seen(c.refusal === null ? 'candidate' : `refused/${c.refusal.code}`);
        for (const d of c.diagnostics) seen(d.code);
        // FORMATS.md §1.3: at most five repeated comment keys are reported per item.
        check(c.diagnostics.filter((d) => d.code === 'llms-comment-duplicate-key').length <= 5, `${where}: over 5 duplicate-key diagnostics`);
      }
    }),
};
