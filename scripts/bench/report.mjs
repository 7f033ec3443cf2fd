// @ts-check
// Renders the JSON sections written by the bench specs (test-results/bench/*.json) into
// docs/benchmarks.md: the machine, a summary of every target, then one table per section.

/**
 * @typedef {{ what: string, target: string, measured: string, met: boolean | null, why?: string }} TargetCheck
 * @typedef {{ id: string, title: string, columns: string[], rows: (string | number)[][], targets: TargetCheck[], notes: string[], seconds?: number }} BenchSection
 * @typedef {{ command: string, startedAt: string, seconds: number, machine: [string, string][], failed: string[] }} RunInfo
 */

/** @param {string | number} v */
function esc(v) {
  return String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** @param {string[]} cols @param {(string | number)[][]} rows */
function table(cols, rows) {
  const out = [`| ${cols.map(esc).join(' | ')} |`, `| ${cols.map(() => '---').join(' | ')} |`];
  for (const r of rows) out.push(`| ${r.map((c) => (typeof c === 'string' && c.startsWith('npx ') ? '`' + c + '`' : esc(c))).join(' | ')} |`);
  return out.join('\n');
}

/** @param {boolean | null} met */
function verdict(met) {
  return met === null ? 'info' : met ? 'met' : '**missed**';
}

/** A section's number, as its title starts ("1b. The wake …" → "1b"). @param {string} title */
export function sectionNumber(title) {
  return /^([0-9]+[a-z]?)\./.exec(title)?.[1] ?? title;
}

/**
 * @param {BenchSection[]} sections
 * @param {RunInfo} run
 */
export function renderReport(sections, run) {
  const sorted = [...sections].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  const all = sorted.flatMap((s) => s.targets.map((t) => ({ ...t, section: sectionNumber(s.title) })));
  const met = all.filter((t) => t.met === true).length;
  const missed = all.filter((t) => t.met === false);
  const lines = [];
  lines.push('# Benchmarks');
  lines.push('');
  lines.push(`Written by \`${run.command}\` on ${run.startedAt} (whole run ${Math.round(run.seconds)} s). Do not edit by hand: run it again.`);
  lines.push('Every row names the command that reproduces it (after `npx wxt build -c test/bench/wxt.bench.config.ts`, which `npm run bench` does first).');
  lines.push(
    'Medians with the interquartile range (IQR, p25–p75) or p95; A/B figures are interleaved (A B, then B A). Timings are never asserted: a figure that misses its target is listed below with its cause.',
  );
  lines.push('');
  lines.push('## Machine');
  lines.push('');
  lines.push(table(['', ''], run.machine));
  lines.push('');
  if (run.failed.length > 0) {
    lines.push(`**Bench specs that failed to run:** ${run.failed.join(', ')} (their sections below are from an earlier run or missing).`);
    lines.push('');
  }
  lines.push('## Targets');
  lines.push('');
  lines.push(`${met} met, ${missed.length} missed, ${all.length - met - missed.length} informative.`);
  lines.push('');
  lines.push(
    table(
      ['section', 'target', 'goal', 'measured', 'result'],
      all.map((t) => [t.section, t.what, t.target, t.measured, verdict(t.met)]),
    ),
  );
  lines.push('');
  if (missed.length > 0) {
    lines.push('### Why the missed targets are missed');
    lines.push('');
    for (const t of missed) lines.push(`- **${t.what}** (${t.measured}; goal ${t.target}): ${t.why ?? "see the section's notes."}`);
    lines.push('');
  }
  for (const s of sorted) {
    lines.push(`## ${s.title}`);
    lines.push('');
    lines.push(table(s.columns, s.rows));
    lines.push('');
    for (const n of s.notes) lines.push(`- ${n}`);
    if (s.seconds !== undefined) lines.push(`- This section took ${Math.round(s.seconds)} s.`);
    lines.push('');
  }
  return lines.join('\n');
}

/** @param {string} line */
function cells(line) {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) =>
    c
      .trim()
      .replace(/\\\|/g, '|')
      .replace(/^`(npx .*)`$/, '$1'),
  );
}

/**
 * The sections of a docs/benchmarks.md that renderReport wrote (targets table with its section
 * column), so a run of some bench specs keeps the others' last results when their JSON files are
 * not at hand (a fresh checkout). Each section gets the id `kept-<number>`; figures are the
 * table's text. A document whose targets table has no section column gives its sections with no
 * targets.
 * @param {string} markdown
 * @returns {BenchSection[]}
 */
export function parseReport(markdown) {
  const lines = markdown.split('\n');
  /** @type {Map<string, TargetCheck[]>} */
  const targets = new Map();
  /** @type {Map<string, string>} */
  const whys = new Map();
  /** @type {BenchSection[]} */
  const sections = [];
  /** @type {BenchSection | null} */
  let current = null;
  let inTargets = false;
  for (const line of lines) {
    if (line.startsWith('## ')) {
      inTargets = line === '## Targets';
      const title = line.slice(3);
      current = /^[0-9]+[a-z]?\. /.test(title) ? { id: `kept-${sectionNumber(title)}`, title, columns: [], rows: [], targets: [], notes: [] } : null;
      if (current) sections.push(current);
      continue;
    }
    const why = /^- \*\*(.+?)\*\* \(.*?\): (.*)$/.exec(line);
    if (why && !current) whys.set(why[1] ?? '', why[2] ?? '');
    if (line.startsWith('|')) {
      const row = cells(line);
      if (row.every((c) => /^-+$/.test(c))) continue;
      if (inTargets) {
        if (row[0] === 'section' || row.length !== 5) continue;
        const [section = '', what = '', target = '', measured = '', result = ''] = row;
        const met = result === 'info' ? null : result === 'met';
        targets.set(section, [...(targets.get(section) ?? []), { what, target, measured, met }]);
      } else if (current) {
        if (current.columns.length === 0) current.columns = row;
        else current.rows.push(row);
      }
      continue;
    }
    if (current && line.startsWith('- ')) {
      const took = /^- This section took ([0-9]+) s\.$/.exec(line);
      if (took) current.seconds = Number(took[1]);
      else current.notes.push(line.slice(2));
    }
  }
  for (const s of sections) {
    s.targets = (targets.get(sectionNumber(s.title)) ?? []).map((t) => (t.met === false && whys.has(t.what) ? { ...t, why: whys.get(t.what) } : t));
  }
  return sections;
}
