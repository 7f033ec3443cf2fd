// The skill every hand-off test inserts: the line structure that editors lose first —
// frontmatter rules (`---`, which Tiptap's input rules would turn into a horizontal
// rule), headings, a nested list, an indented code block, blank lines, inline code and
// bold at the ends of lines (input-rule triggers), a line ending in "\", trailing text
// after an empty line — and long enough (over 2,000 characters) that a paste of it
// becomes an attachment chip on the sites that do that.
import type { SkillSpec } from '../../../scripts/lib/publisher-site.mjs';

const filler = Array.from({ length: 18 }, (_, i) => `- Step ${i + 1}: read the page, then answer with the exact figure and the link you used.`);

export const HANDOFF_SKILL_MD = [
  '---',
  'name: multi-line',
  'description: "A skill whose lines must arrive exactly."',
  '---',
  '',
  '# Multi-line skill',
  '',
  '## Steps',
  '',
  '1. Run `npm test`',
  '2. Read the **summary**',
  '   - nested under two',
  '     - nested deeper',
  '',
  '    indented code line',
  '        more indented code',
  '',
  'A line ending in a backslash \\',
  'continues here.',
  '',
  '',
  ...filler,
  '',
  'Last line.',
  '',
].join('\n');

export const HANDOFF_SKILL: SkillSpec = { name: 'multi-line', description: 'A skill whose lines must arrive exactly.', raw: HANDOFF_SKILL_MD };
