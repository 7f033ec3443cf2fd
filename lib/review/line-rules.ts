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

/** Applies the rules to every line; one finding per rule and line. */
export function applyLineRules(file: string, lines: readonly string[], rules: readonly LineRule[], out: Findings): void {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length < 4) continue;
    const parts = windowsOf(line);
    const lower = parts.map((p) => p.toLowerCase());
    for (const rule of rules) {
      for (let w = 0; w < parts.length; w++) {
        const part = parts[w] as string;
        const low = lower[w] as string;
        if (rule.hints !== undefined && !rule.hints.some((h) => low.includes(h))) continue;
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
