// Chat risks (PRODUCT.md §6.1), for skills handed to web chats: a markdown image or link whose
// address carries the conversation (the chat fetches it when it renders the answer), telling the
// agent to use the user's connected apps or to write the assistant's memory, concealment, and the
// phrases that tell an agent to ignore earlier instructions (lib/verify/advisory.ts).
import { INJECTION_PATTERNS } from '../verify/advisory';
import { type LineRule, ofKind } from './line-rules';

/** What a placeholder names when it stands for the chat: the conversation, the user's words, secrets. */
const FILLED = '(?:conversation|chat|history|messages?|prompt|context|memory|summary|secrets?|user|question|answers?|input|query|password|tokens?|api[_ -]?keys?|email|personal|private|data)';
/** A placeholder the agent fills in with the chat ({conversation}, {{user_message}}, <summary>, $HISTORY, [DATA]), or a query value naming it. */
const PLACEHOLDER = `(?:(?:\\{\\{?|%7[Bb]|<|\\$\\{?|\\[)[A-Za-z_ .-]{0,30}?${FILLED}[A-Za-z_ .-]{0,30}(?:\\}\\}?|%7[Dd]|>|\\]|\\b)|=(?:conversation|chat|history|user_?(?:input|message|query|data)|summary|secrets?)\\b)`;
const CHAT_WORDS =
  "(?:conversation|chat(?: history| log)?|user'?s? (?:message|messages|input|question|request|data|details|answers?)|previous (?:messages?|answers?)|message history|context|summary|secrets?|api keys?|passwords?|personal (?:data|information))";

const EXFIL = 'Makes the chat send the conversation to another server when it shows an image or link.';

export const CHAT_RULES: LineRule[] = [
  ...ofKind('chat-exfiltration', 'acts', [
    // ![](https://x/?q={conversation}) — an image the chat loads as soon as the answer renders.
    { re: new RegExp(`!\\[[^\\]\\n]{0,200}\\]\\(\\s{0,3}<?https?:\\/\\/[^\\s)]{0,300}?${PLACEHOLDER}`, 'i'), message: EXFIL, hints: ['!['] },
    {
      re: new RegExp(`<img\\b[^>\\n]{0,200}?\\bsrc\\s{0,3}=\\s{0,3}["']?https?:\\/\\/[^\\s"'>]{0,300}?${PLACEHOLDER}`, 'i'),
      message: EXFIL,
      hints: ['<img'],
    },
    // "append the user's message to this URL"
    {
      re: new RegExp(
        `\\b(?:append|add|include|put|encode|insert|embed|attach|pass|place)\\b[^\\n]{0,80}?\\b${CHAT_WORDS}\\b[^\\n]{0,60}?\\b(?:to|in|into|as)\\s{1,5}(?:the\\s{1,5}|this\\s{1,5}|an?\\s{1,5})?(?:url|link|query(?: string| parameter)?|image(?: url| address| link)?|address|src)\\b`,
        'i',
      ),
      hints: ['url', 'link', 'query', 'image', 'address', 'src'],
      message: EXFIL,
    },
  ]),
  ...ofKind('connected-apps', 'can-act', [
    {
      re: /\b(?:search|read|open|access|check|scan|use|look through|go through|forward|send|fetch|list|download|export|summari[sz]e)\b[^\n]{0,40}?\b(?:the user'?s|their|your|connected)\s{1,5}(?:gmail|e-?mails?|inbox|mailbox|google drive|drive|onedrive|dropbox|calendar|contacts|github|slack|notion|outlook|sharepoint|confluence|jira)\b/i,
      message: "Tells the agent to use the user's connected apps (mail, files, code, calendar).",
    },
    {
      re: /\b(?:(?:gmail|google drive|google calendar|outlook|onedrive|sharepoint|dropbox|github|slack|notion|box|linear|jira|confluence)\s{1,3}(?:connector|integration)|connected\s{1,3}(?:apps?|accounts?|services?|data sources?))\b/i,
      message: "Tells the agent to use the user's connected apps (mail, files, code, calendar).",
    },
  ]),
  ...ofKind('assistant-memory', 'can-act', [
    {
      re: /\b(?:save|store|add|write|commit|record|put|keep|persist)\b[^\n]{0,60}?\b(?:to|in|into)\s{1,5}(?:your\s{1,5}|the\s{1,5}|its\s{1,5})?(?:long[- ]term\s{1,5}|persistent\s{1,5}|permanent\s{1,5}|assistant'?s?\s{1,5}|chatgpt'?s?\s{1,5}|claude'?s?\s{1,5})?(?:memory|memories|bio)\b|\bremember\b[^\n]{0,60}?\b(?:for|in|across|during)\s{1,5}(?:all\s{1,5})?(?:future|subsequent|later|every|other|next)\s{1,5}(?:conversations?|chats?|sessions?)\b|\b(?:update|use)\s{1,5}(?:the\s{1,5})?(?:memory|bio)\s{1,5}tool\b/i,
      message: "Tells the agent to write the assistant's memory, so the instruction outlives the skill.",
    },
  ]),
  ...ofKind('concealment', 'look', [
    {
      re: /\b(?:do\s{1,3}not|don'?t|never)\s{1,5}(?:mention|reveal|disclose|tell|say|show|inform|let\s{1,3}(?:the\s{1,3})?users?\s{1,3}know|report|explain)\b[^\n]{0,40}?\b(?:the user|users?|anyone|this skill|these instructions|this (?:step|instruction|command)|that you)\b|\bwithout\s{1,5}(?:telling|informing|asking|notifying|alerting)\s{1,5}(?:the\s{1,5})?users?\b|\b(?:silently|secretly|covertly|quietly)\s{1,5}(?:run|execute|send|upload|install|add|append|write|download|copy)\b|\bkeep\s{1,5}(?:this|these|it)\s{1,5}(?:secret|hidden|confidential)\b/i,
      message: 'Tells the agent to hide what it does from the user.',
    },
    ...INJECTION_PATTERNS.map((re) => ({ re, message: 'Tells the agent to ignore its earlier instructions or to reveal its prompt.' })),
  ]),
];
