// Helpers for the review tests: files from text, and the findings of one kind.
import { reviewSkill } from '../../../lib/review';
import type { Finding, FindingKind, SkillReview } from '../../../lib/types';

const enc = new TextEncoder();

export function files(map: Record<string, string | Uint8Array>): { path: string; bytes: Uint8Array }[] {
  return Object.entries(map).map(([path, v]) => ({ path, bytes: typeof v === 'string' ? enc.encode(v) : v }));
}

export function review(map: Record<string, string | Uint8Array>): SkillReview {
  return reviewSkill(files(map));
}

export function kinds(r: SkillReview): string[] {
  return [...new Set(r.findings.map((f) => f.kind))].sort();
}

export function of(r: SkillReview, kind: FindingKind): Finding[] {
  return r.findings.filter((f) => f.kind === kind);
}

export const SKILL = '---\nname: demo\ndescription: A demo skill.\n---\n\n# Demo\n';
export const skill = (body: string, frontmatter = 'name: demo\ndescription: A demo skill.\n'): string => `---\n${frontmatter}---\n\n${body}\n`;
