// Text rules applied line by line. Every pattern has at most one bounded gap, so one line costs
// time proportional to its length; a long line is read in overlapping windows of LINE_WINDOW
// characters, so no line costs more than its length times a constant.
import type { FindingKind, FindingSeverity } from '../types';
import type { Findings } from './findings';
import { LINE_WINDOW } from './limits';

export interface LineRule {
  kind: FindingKind;
  severity: FindingSeverity;
  /** Without the global flag: the first match of a window is the finding. */
  re: RegExp;
  message: string;
  /** Another pattern the same window must hold as well (a write next to a target, say). */
  also?: RegExp;
  /** A pattern (anchored with ^) that must follow the match within THEN_REACH characters; the finding shows both. */
  followedBy?: RegExp;
  /** Lower-case strings of which a window must hold one for the rule to run at all (a cheap pre-filter). */
  hints?: readonly string[];
}

/** Rules of one kind and severity. */
export function ofKind(kind: FindingKind, severity: FindingSeverity, rules: readonly Omit<LineRule, 'kind' | 'severity'>[]): LineRule[] {
  return rules.map((rule) => ({ kind, severity, ...rule }));
}

const THEN_REACH = 200;

const OVERLAP = 512;

/** The windows of a line a rule reads: the line itself when short. */
export function windowsOf(line: string): string[] {
  if (line.length <= LINE_WINDOW) return [line];
  const out: string[] = [];
  for (let at = 0; at < line.length; at += LINE_WINDOW - OVERLAP) {
    out.push(line.slice(at, at + LINE_WINDOW));
    if (at + LINE_WINDOW >= line.length) break;
  }
  return out;
}

/** The rule's pattern over a whole file, multi-line: it matches wherever the per-line pattern could. */
const WHOLE = new WeakMap<RegExp, RegExp>();

function wholeOf(re: RegExp): RegExp {
  let whole = WHOLE.get(re);
  if (whole === undefined) {
    whole = new RegExp(re.source, `${re.flags.replace(/[gy]/g, '')}m`);
    WHOLE.set(re, whole);
  }
  return whole;
}

/** The rules that may match somewhere in the text: hint words present, and the pattern matching the whole text once. */
function candidates(text: string, rules: readonly LineRule[]): LineRule[] {
  const lower = text.toLowerCase();
  return rules.filter((rule) => (rule.hints === undefined || rule.hints.some((h) => lower.includes(h))) && wholeOf(rule.re).test(text));
}

/**
 * Applies the rules to every line; one finding per rule and line. A rule is tried line by line only
 * when it matches the file as a whole (one scan), which leaves most rules one scan per file.
 */
export function applyLineRules(file: string, text: string, lines: readonly string[], rules: readonly LineRule[], out: Findings): void {
  const live = candidates(text, rules);
  if (live.length === 0) return;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length < 4) continue;
    const parts = windowsOf(line);
    const lower = parts.map((p) => p.toLowerCase());
    for (const rule of live) {
      for (let w = 0; w < parts.length; w++) {
        const part = parts[w] as string;
        if (rule.hints !== undefined && !rule.hints.some((h) => (lower[w] as string).includes(h))) continue;
        const m = rule.re.exec(part);
        if (m === null || (rule.also !== undefined && !rule.also.test(part))) continue;
        let shownText = m[0];
        if (rule.followedBy !== undefined) {
          const after = part.slice(m.index + m[0].length, m.index + m[0].length + THEN_REACH);
          const t = rule.followedBy.exec(after);
          if (t === null) continue;
          shownText += t[0];
        }
        out.add(rule.kind, rule.severity, file, i + 1, shownText, rule.message);
        break;
      }
    }
  }
}
