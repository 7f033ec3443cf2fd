// Remote code (PRODUCT.md §6.1): a download piped or handed to a shell or an interpreter, in the
// spellings people use — `curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`, PowerShell's
// `iwr … | iex`, a base64 payload decoded into a shell or `eval`, Python's urllib read into `exec`,
// and the same steps written in prose. The code can change after review (a rug pull).
import type { LineRule } from './line-rules';

const MESSAGE = 'Downloads code and runs it straight away; what runs can change after you review it.';
const FETCHER = '(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch|aria2c|lwp-request)';
const SHELL = '(?:ba|z|k|da|fi|c|tc|a)?sh';
const INTERPRETER = `(?:${SHELL}|python[0-9.]{0,4}|py|perl|ruby|node|deno|bun|php|pwsh|powershell|iex|invoke-expression|source|osascript)`;
/** What a pipe may run into: a shell or an interpreter, behind sudo or env. */
const PIPE_TARGET = `\\|\\s{0,5}(?:sudo\\s{1,5}(?:-[A-Za-z]{1,3}\\s{1,5})?)?(?:env\\s{1,5})?${INTERPRETER}\\b`;

/** Hint words of the rule that runs fetched code: the calls that read an address's content. */
const FETCH_CALLS = ['urlopen', 'urllib', 'requests.get', 'httpx.get', 'urlretrieve', 'fetch', 'http.get', 'https.get'];

const rule = (re: RegExp, hints: string[], message = MESSAGE): LineRule => ({ kind: 'remote-code', severity: 'can-act', re, message, hints });

export const REMOTE_CODE_RULES: LineRule[] = [
  // curl … | sh, wget -O- … | bash, iwr … | iex
  rule(new RegExp(`\\b${FETCHER}\\b[^|\\n]{0,400}${PIPE_TARGET}`, 'i'), ['|']),
  // bash <(curl …), source <(wget …), . <(curl …)
  rule(new RegExp(`(?:\\b${INTERPRETER}|(?:^|\\s)\\.)\\s{1,5}(?:-[A-Za-z]{1,3}\\s{1,5})?<\\(\\s{0,5}${FETCHER}\\b`, 'i'), ['<(']),
  // sh -c "$(curl …)", python -c "$(curl …)", eval "$(curl …)", eval `wget …`
  rule(new RegExp(`\\b(?:${INTERPRETER}\\s{1,5}-c|eval)\\s{1,5}["']?(?:\\$\\(|\`)\\s{0,5}${FETCHER}\\b`, 'i'), ['$(', '`']),
  // Invoke-Expression (New-Object Net.WebClient).DownloadString(…), iex (iwr …)
  rule(/\b(?:iex|invoke-expression)\b[^\n]{0,300}?\b(?:downloadstring|downloaddata|iwr|irm|invoke-webrequest|invoke-restmethod|net\.webclient|start-bitstransfer)\b/i, ['iex', 'invoke-expression']),
  // echo … | base64 -d | sh, base64 --decode … | bash
  rule(new RegExp(`\\bbase64\\s{1,5}(?:-d|--decode|-D)\\b[^|\\n]{0,200}${PIPE_TARGET}`, 'i'), ['|'], 'Decodes a hidden (base64) payload and runs it.'),
  // eval "$(echo … | base64 -d)", eval(atob(…)), exec(base64.b64decode(…)), eval(Buffer.from(…, 'base64')…)
  rule(
    /\b(?:eval|exec)\b[^\n]{0,300}?\b(?:base64|b64decode|decodebytes|atob|frombase64string)\b/i,
    ['base64', 'b64decode', 'decodebytes', 'atob', 'frombase64string'],
    'Decodes a hidden (base64) payload and runs it.',
  ),
  // powershell -EncodedCommand …
  rule(/\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,100}?\s-(?:e|ec|enc|encodedcommand)\s{1,5}[A-Za-z0-9+/=]{16}/i, ['powershell', 'pwsh'], 'Runs a hidden (base64-encoded) PowerShell command.'),
  // exec(urllib.request.urlopen(…).read()), exec(requests.get(…).text), eval(await (await fetch(…)).text())
  rule(/\b(?:exec|eval|new\s{1,5}function|runpy\.run_path|compile)\s{0,5}\([^\n]{0,300}?\b(?:urlopen|urllib|requests\.get|httpx\.get|urlretrieve|fetch|http\.get|https\.get)\b/i, FETCH_CALLS),
  // Prose: "download the file at https://… and run it with bash" (the run phrase within 200 characters after the address)
  {
    ...rule(
      /\b(?:download|fetch|grab|retrieve|pull down|get)\b[^\n]{0,200}?https?:\/\/[^\s]{1,300}/i,
      ['http'],
      'Tells the agent to download a file and run it; what runs can change after you review it.',
    ),
    followedBy:
      /^[^\n]{0,80}?\b(?:run|execute|exec|source|launch|pipe)\b[^\n]{0,40}?\b(?:with|in|into|using|through|via|to)\s{1,5}(?:a\s{1,5}|the\s{1,5})?(?:bash|sh|shell|zsh|python3?|node|powershell|pwsh|terminal|interpreter)\b/i,
  },
];
