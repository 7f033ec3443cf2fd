// A description written to make a skill trigger on every task (arXiv 2605.11418: descriptions
// tuned to win selection). Phrases, one bounded pattern each.

const SUBJECT = '(?:tasks?|requests?|conversations?|messages?|questions?|prompts?|quer(?:y|ies)|interactions?|turns?|responses?|sessions?|chats?|actions?|jobs?)';
/** What usually narrows an "any task …" phrase to the skill's own subject. */
const NARROWED = '(?!\\s{1,5}(?:involving|related|that|which|where|about|using|requiring|with|on|in|of|for|when|if|to|around|touching|needing|like))';

const PATTERNS: RegExp[] = [
  new RegExp(
    `\\b(?:use|invoke|load|apply|activate|trigger|run|call|consult|read)\\s{1,5}(?:(?:this|the|me|it)\\s{1,5}(?:skill\\s{1,5})?)?(?:for|on|in|with|before|during|at the start of)\\s{1,5}(?:every|all|any|each)\\s{1,5}(?:single\\s{1,5}|other\\s{1,5}|user\\s{1,5})?${SUBJECT}\\b${NARROWED}`,
    'i',
  ),
  /\balways\s{1,5}(?:use|invoke|load|apply|activate|trigger|consult|read|run)\s{1,5}(?:this|me|it)\b(?!\s{1,5}(?:when|if|for|to))/i,
  /\b(?:must|should)\s{1,5}(?:always\s{1,5})?be\s{1,5}(?:used|invoked|loaded|applied|activated|triggered)\s{1,5}(?:for|on|before|in)\s{1,5}(?:every|all|any)\b/i,
  /\bbefore\s{1,5}(?:any|every|all)\s{1,5}other\s{1,5}(?:skills?|tools?|instructions?|actions?|steps?|responses?)\b/i,
  /\b(?:regardless|irrespective)\s{1,5}of\s{1,5}(?:the\s{1,5})?(?:task|request|topic|question|context|subject)\b/i,
  new RegExp(`\\b(?:for|on|in)\\s{1,5}every\\s{1,5}(?:single\\s{1,5})?${SUBJECT}\\b${NARROWED}`, 'i'),
];

/** The phrase of the description that makes it trigger on everything, or null. */
export function broadTrigger(description: string): string | null {
  const text = description.length > 4096 ? description.slice(0, 4096) : description;
  for (const re of PATTERNS) {
    const m = re.exec(text);
    if (m !== null) return m[0];
  }
  return null;
}
