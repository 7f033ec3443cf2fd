// The review's time on crafted inputs grows linearly: each input of n characters against the same
// of 4n, timed side by side in CPU time (best of five, alternately, after a warm-up). A rule whose
// time grew with the square of a line's length would take 16 times as long; the check allows 8
// (collection pauses blur the ideal 4).
import { reviewSkill } from '../../../lib/review';

const encoder = new TextEncoder();
const N = 200_000;
const ALLOWED = 8;

/** Adversarial texts: long lines of the words the rules start from, with no end that would match. */
const CRAFTED: Record<string, (n: number) => string> = {
  'curl without a pipe target': (n) => 'curl '.repeat(n / 5),
  'download without a run': (n) => 'download https://x.invalid/a '.repeat(n / 29),
  'eval without base64': (n) => 'eval '.repeat(n / 5),
  'html comment starts': (n) => '<!--'.repeat(n / 4),
  'load command starts': (n) => ' !`a'.repeat(n / 4),
  'image without placeholder': (n) => '![a](https://x.invalid/'.repeat(n / 23),
  'invisible characters': (n) => 'a\u200b'.repeat(n / 2),
  'many short lines': (n) => 'sudo x\n'.repeat(n / 7),
  'persistence target without a write': (n) => 'CLAUDE.md '.repeat(n / 10),
  'svg tags': (n) => `<svg>${'<a b="'.repeat(n / 6)}`,
  'frontmatter of many keys': (n) => `---\n${Array.from({ length: Math.min(n / 12, 1200) }, (_, i) => `key${i}: v`).join('\n')}\n---\n`,
  'chat words without an address': (n) => "append the user's message ".repeat(n / 26),
};

/** CPU time of one review in ms (this process's user and system time: other processes on a busy machine do not count). */
function timeOnce(bytes: Uint8Array, path: string): number {
  const t = process.cpuUsage();
  reviewSkill([{ path, bytes }]);
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/** The best of five for n and for 4n, measured alternately so that a busy machine slows both alike. */
function timesOf(small: string, large: string, path: string): [number, number] {
  const a = encoder.encode(small);
  const b = encoder.encode(large);
  let bestA = Number.POSITIVE_INFINITY;
  let bestB = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    bestA = Math.min(bestA, timeOnce(a, path));
    bestB = Math.min(bestB, timeOnce(b, path));
  }
  return [bestA, bestB];
}

/** Null when every crafted input scales linearly; otherwise what did not. */
export function linearTimeCheck(): string | null {
  const slow: string[] = [];
  timeOnce(
    encoder.encode(
      Object.values(CRAFTED)
        .map((make) => make(2000))
        .join('\n'),
    ),
    'SKILL.md',
  );
  for (const [name, make] of Object.entries(CRAFTED)) {
    const path = name.startsWith('svg') ? 'x.svg' : 'SKILL.md';
    const [small, large] = timesOf(make(N), make(4 * N), path);
    const ratio = large / Math.max(small, 0.5);
    console.log(`  linear check: ${name}: ${small.toFixed(1)} ms → ${large.toFixed(1)} ms (×${ratio.toFixed(1)})`);
    if (ratio > ALLOWED && large > 20) slow.push(`${name} grew ×${ratio.toFixed(1)} from n to 4n`);
  }
  return slow.length === 0 ? null : slow.join('; ');
}
