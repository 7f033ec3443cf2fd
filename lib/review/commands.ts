// Shell-ish text rules (PRODUCT.md §6.1), for every text file of a skill: persistence (writes to
// agent memory and configuration, shell start-up files, crontab, authorized_keys, launch agents and
// systemd user units), reads of secrets, sending data out, and privilege. A command in a SKILL.md
// code block is something the agent may run: these are all `can-act`.
import { type LineRule, ofKind } from './line-rules';

/** Files whose change outlives the skill: agent memory and settings, shell start-up, scheduled and remote access. */
const PERSIST_TARGET =
  /(?:CLAUDE\.md|AGENTS\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|\.clinerules|copilot-instructions\.md|\.claude\/(?:settings(?:\.local)?\.json|commands|agents|skills|hooks)|\.cursor\/(?:rules|mcp\.json)|\.codex\/|\.gemini\/settings|\.mcp\.json|(?:^|[\s"'`/~=])\.(?:bashrc|bash_profile|bash_login|zshrc|zshenv|zprofile|profile)\b|config\.fish|\.config\/autostart|authorized_keys|\/etc\/cron|\/etc\/rc\.local|LaunchAgents|LaunchDaemons|\.config\/systemd\/user|CurrentVersion\\Run)/i;
/** Something on the same line that writes: a redirection, tee, a copy, an edit in place, a write call or a verb. */
const WRITES =
  />>|>\s{0,3}["'~$/A-Za-z]|\btee\b|\b(?:cp|mv|ln|install|rsync|sed\s{1,3}-i|perl\s{1,3}-pi)\b|\b(?:appendFile|writeFile|write_text|write_bytes|Add-Content|Set-Content|Out-File|open\([^)\n]{0,200},\s{0,3}["'][aw])|\b(?:append|add|write|insert|save|update|modify|edit|inject|put)\b/i;

/** Secrets: private keys and their folder, cloud and registry credentials, browser profiles, keychains. */
const SECRET_PATH =
  /(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\/home\/[\w.-]{1,64}|\/Users\/[\w.-]{1,64}|\/root)\/\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?\b|\.aws\/credentials|\.config\/gcloud|application_default_credentials\.json|\.azure\/(?:accessTokens|msal_token_cache)|(?:^|[\s"'`=(/])\.netrc\b|\.git-credentials|\.docker\/config\.json|\.kube\/config|\.pypirc|\.gnupg\b|\bLogin Data\b|\blogins\.json\b|\bkey[34]\.db\b|\bcookies\.sqlite\b|Google\/Chrome\/(?:Default|Profile)|Chrome\\User Data|\.mozilla\/firefox|Firefox\/Profiles|Library\/Keychains|login\.keychain|\bsecurity\s{1,3}(?:find|dump)-(?:generic-password|internet-password|keychain)|\bwallet\.dat\b|(?:^|[\s"'`=(/])\.env(?:\.local|\.production|\.prod)?(?=$|[\s"'`)/;,:])/i;

const NET = '(?:curl|wget|nc|ncat|netcat|socat|http|fetch|requests\\.(?:post|put|get)|httpx\\.(?:post|put)|axios|invoke-webrequest|invoke-restmethod|iwr|irm|scp|rsync|ftp|sftp)';

export const COMMAND_RULES: LineRule[] = [
  ...ofKind('persistence', 'can-act', [
    {
      re: PERSIST_TARGET,
      also: WRITES,
      message: 'Writes to a file that outlives the skill (agent memory or settings, shell start-up, scheduled tasks or remote access).',
    },
    {
      re: /\|\s{0,5}crontab\b|\bcrontab\s{1,5}(?:-e\b|-\s|-$|["'~$/\w])|\bsystemctl\s{1,5}--user\s{1,5}enable\b|\blaunchctl\s{1,5}(?:load|bootstrap)\b|\bschtasks\s{1,5}\/create\b|\bat\s{1,5}now\b/i,
      message: 'Schedules or installs something that keeps running after the skill is gone.',
    },
  ]),
  ...ofKind('secrets', 'can-act', [{ re: SECRET_PATH, message: 'Reads private keys, credentials, tokens or a browser profile.' }]),
  ...ofKind('sends-data', 'can-act', [
    {
      re: /\bcurl\b[^\n]{0,300}?(?:\s-d\s{0,3}["']?@|--data(?:-binary|-raw|-urlencode|-ascii)?[\s=]{1,3}["']?@|\s-F\s{0,3}["']?[\w.-]{0,40}=["']?@|--form\s{1,3}["']?[\w.-]{0,40}=@|\s-T\s|--upload-file\b)/i,
      hints: ['@', ' -t', '--upload-file'],
      message: 'Uploads the contents of a file to a server.',
    },
    {
      re: /\bwget\b[^\n]{0,300}?--post-(?:file|data)\b|\binvoke-(?:webrequest|restmethod)\b[^\n]{0,300}?-infile\b/i,
      hints: ['--post-', '-infile'],
      message: 'Uploads the contents of a file to a server.',
    },
    {
      re: /\b(?:nc|ncat|netcat)\s{1,5}(?:-[A-Za-z]{1,3}\s{1,5}){0,2}[\w.-]{1,253}\s{1,5}\d{1,5}\s{0,5}<|\|\s{0,5}(?:nc|ncat|netcat|socat)\s|\/dev\/(?:tcp|udp)\//i,
      hints: ['nc', 'netcat', 'socat', '/dev/'],
      message: 'Sends data to another computer over a raw network connection.',
    },
    {
      re: new RegExp(
        `\\b${NET}\\b[^\\n]{0,300}?(?:\\$\\(\\s{0,3}(?:env|printenv|set|cat|base64|history|whoami|hostname|id|uname)\\b|\`(?:env|printenv|cat)\\b|\\$\\{?[A-Z_]{0,40}(?:TOKEN|API_KEY|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)\\b|os\\.environ|process\\.env\\b(?!\\.)|open\\()`,
        'i',
      ),
      hints: ['$', '`', 'environ', 'process.env', 'open('],
      message: 'Sends the environment, a secret or the contents of a file to a server.',
    },
    {
      re: new RegExp(`\\b(?:env|printenv|set)\\s{0,5}\\|\\s{0,5}(?:base64\\s{0,5}\\|\\s{0,5})?${NET}\\b`, 'i'),
      hints: ['|'],
      message: 'Sends the environment (which holds tokens and keys) to a server.',
    },
  ]),
  ...ofKind('privilege', 'can-act', [
    { re: /(?:^|[\s;&|(`$"'])sudo\s{1,5}[^\n]{1,60}|\bdoas\s{1,5}\S|\bRunAs\b|-Verb\s{1,3}RunAs\b/, message: 'Runs a command as the administrator (sudo).' },
    {
      re: /\bchmod\s{1,5}(?:-[A-Za-z]{1,3}\s{1,5})?(?:[ugoa]{0,3}\+[rwxt]{0,3}s|0?[2467][0-7]{3})\b|\bsetcap\s|\/etc\/sudoers|\bvisudo\b|\busermod\s{1,5}-a?G\s{1,5}(?:sudo|wheel|admin)\b/,
      message: 'Gives a program more rights than its user (set-uid, capabilities, sudoers).',
    },
    {
      re: /(?:^|[;&|`$(]\s{0,3}|\bsudo\s{1,5}|\$\s{1,3})(?:shutdown|reboot|poweroff|halt)\b|\bshutdown\s{1,3}(?:-[hrPs]\b|now\b|\/[rsf]\b)|\binit\s{1,3}[06]\b|\bStop-Computer\b|\bRestart-Computer\b/,
      message: 'Shuts down or restarts the computer.',
    },
  ]),
];
