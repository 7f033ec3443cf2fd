// The file-by-file pass of the review (lib/review/index.ts). A first rule set: the frontmatter's
// grants and hooks, load-time command expansion, files that can run by name, hidden text in every
// text file. lib/review/ grows one module per family of rules.
import { decodeUtf8 } from '../parse/decode';
import { parseFrontmatterText } from '../parse/skill-md';
import type { Finding } from '../types';
import { advisoryFlags, reachKeys } from '../verify/advisory';
import type { ReviewFile, ReviewOptions } from './review-types';

const MATCH_MAX = 120;

function shown(text: string): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > MATCH_MAX ? `${escaped.slice(0, MATCH_MAX - 1)}…` : escaped;
}

const SCRIPT_NAME = /\.(sh|bash|zsh|fish|ksh|py|js|mjs|cjs|ts|rb|pl|php|lua|ps1|bat|cmd|exe|dll|so|dylib|jar)$/i;
const LOAD_COMMAND = /!`[^`\n]+`/g;

function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function reviewSkillMd(text: string, findings: Finding[]): void {
  const fm = parseFrontmatterText(text);
  for (const key of reachKeys(fm.data)) {
    const hooks = key.toLowerCase() === 'hooks';
    findings.push({
      kind: hooks ? 'hooks' : 'tool-grant',
      severity: hooks ? 'acts' : 'can-act',
      file: 'SKILL.md',
      line: null,
      match: shown(key),
      message: hooks ? 'The frontmatter declares hooks, which the agent runs on its own.' : `The frontmatter grants the agent tools or servers (${key}).`,
    });
  }
  for (const m of text.matchAll(LOAD_COMMAND)) {
    findings.push({ kind: 'load-command', severity: 'acts', file: 'SKILL.md', line: lineOf(text, m.index ?? 0), match: shown(m[0]), message: 'Runs a command as soon as the skill is loaded.' });
  }
}

export function reviewFiles(files: readonly ReviewFile[], opts: ReviewOptions): { findings: Finding[]; truncated: boolean } {
  const findings: Finding[] = [];
  for (const file of files) {
    if (SCRIPT_NAME.test(file.path)) {
      findings.push({ kind: 'executable', severity: 'can-act', file: file.path, line: null, match: shown(file.path), message: 'A script or program that can run on your computer.' });
    }
    const text = decodeUtf8(file.bytes);
    if (file.path === 'SKILL.md') reviewSkillMd(text, findings);
    for (const flag of advisoryFlags(text, opts.origin)) {
      if (flag.code === 'invisible-unicode' || flag.code === 'bidi-control' || flag.code === 'hidden-markdown' || flag.code === 'html-comment') {
        findings.push({ kind: 'hidden-text', severity: 'look', file: file.path, line: null, match: shown(flag.code), message: flag.message });
      }
    }
  }
  return { findings, truncated: false };
}
