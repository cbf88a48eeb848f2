// Renders benchmark rows as one aligned text table (terminal) or a Markdown table (docs/benchmarks.md).

/**
 * A row: { section, name, unit, median, min, max, runs, ratio?, baseline?, target?, met? }.
 * `ratio` is median / baseline median from the same run; `target` a text such as "<= 1.10".
 */
const COLUMNS = [
  ['section', (r) => r.section],
  ['measurement', (r) => r.name],
  ['median', (r) => fmt(r.median, r.unit)],
  ['min', (r) => fmt(r.min, r.unit)],
  ['max', (r) => fmt(r.max, r.unit)],
  ['runs', (r) => String(r.runs)],
  ['ratio', (r) => (r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x ${r.baseline}`)],
  ['target', (r) => (r.target === undefined ? '' : `${r.target} ${r.met ? 'met' : 'MISSED'}`)],
];

/** Formats a value with its unit. */
export function fmt(value, unit) {
  if (value === undefined) return '';
  if (unit === 'B') return value >= 1024 ? `${(value / 1024).toFixed(2)} KB` : `${value} B`;
  if (unit === 'ops/s' || unit === 'req/s') return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'µs') return `${value.toFixed(value < 100 ? 1 : 0)} µs`;
  if (unit === 'ms')
    return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value < 10 ? 3 : 1)} ms`;
  return `${value} ${unit}`;
}

/** An aligned plain-text table. */
export function textTable(rows) {
  const cells = [COLUMNS.map(([h]) => h), ...rows.map((r) => COLUMNS.map(([, f]) => f(r)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((c) => c[i].length)));
  const line = (c) =>
    c
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** Markdown: one table per section, under a heading of its name, in the order the rows came. */
export function markdownTable(rows) {
  const escape = (v) => v.replaceAll('|', '\\|');
  const columns = COLUMNS.filter(([h]) => h !== 'section');
  const sections = [...new Set(rows.map((r) => r.section))];
  return sections
    .flatMap((section) => [
      `### ${section}`,
      '',
      `| ${columns.map(([h]) => h).join(' | ')} |`,
      `|${columns.map(() => '---').join('|')}|`,
      ...rows
        .filter((r) => r.section === section)
        .map((r) => `| ${columns.map(([, f]) => escape(f(r))).join(' | ')} |`),
      '',
    ])
    .join('\n')
    .trimEnd();
}
