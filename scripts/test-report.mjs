// The timing report `npm test` ends with: each step's wall time, each Jest project's wall time, and the
// slowest test files, read from Jest's --json reports. It is a report, never an assertion: how long a
// run takes depends on the machine, so no budget fails a test (the budgets are in the README).
// Also a command, to read the reports a run kept (`KEEP_REPORTS=<dir> npm test`):
//   node scripts/test-report.mjs <dir> [<checkout the reports were made in>]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The Jest project a test file belongs to, from where it lives (jest.config.js's testMatch): Jest's --json
 * report names each file but not its project.
 * @param {string} p the file's path relative to the checkout
 */
export function projectOf(p) {
  if (p.startsWith('e2e/faults/')) return 'faults';
  if (p.startsWith('e2e/browser/')) return 'browser';
  if (p.startsWith('e2e/')) return 'e2e';
  if (p.includes('/test/integration/')) return 'integration';
  if (p.startsWith('libs/ui/') || p.startsWith('libs/router/')) return 'ui';
  if (p.startsWith('frontends/')) return 'web';
  return 'unit';
}

/**
 * Every test file of one Jest --json report, with its project, wall time and number of tests.
 * @param {string} reportPath
 * @param {string} root the checkout the report was made in
 * @returns {{ file: string, project: string, start: number, end: number, seconds: number, tests: number }[]}
 */
export function filesOfReport(reportPath, root = ROOT) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  return (report.testResults ?? []).map((r) => {
    const file = relative(root, r.name).replaceAll('\\', '/');
    return {
      file,
      project: projectOf(file),
      start: r.startTime,
      end: r.endTime,
      seconds: Math.max(0, (r.endTime - r.startTime) / 1000),
      tests: (r.assertionResults ?? []).length,
    };
  });
}

const secs = (n) => `${n.toFixed(1)} s`;
const mmss = (n) => {
  const whole = Math.round(n);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

/**
 * The report as Markdown tables.
 * @param {{ steps: { name: string, seconds: number }[], files: ReturnType<typeof filesOfReport>, totalSeconds?: number, slowest?: number }} input
 */
export function renderReport({ steps, files, totalSeconds, slowest = 15 }) {
  const lines = [];
  if (steps.length > 0) {
    // CPU: the processor time of the step's processes (all cores; see childrenCpuSeconds in scripts/test.mjs).
    lines.push('| step | wall | CPU |', '|---|---|---|');
    for (const s of steps) lines.push(`| ${s.name} | ${secs(s.seconds)} | ${s.cpu === undefined ? '' : secs(s.cpu)} |`);
    if (totalSeconds !== undefined) lines.push(`| **total** | **${secs(totalSeconds)} (${mmss(totalSeconds)})** | |`);
    lines.push('');
  }
  const projects = new Map();
  for (const f of files) {
    const p = projects.get(f.project) ?? { files: 0, tests: 0, start: Infinity, end: -Infinity, busy: 0 };
    p.files += 1;
    p.tests += f.tests;
    p.start = Math.min(p.start, f.start);
    p.end = Math.max(p.end, f.end);
    p.busy += f.seconds;
    projects.set(f.project, p);
  }
  if (projects.size > 0) {
    // Wall: first file's start to last file's end (projects of one Jest process overlap); files: the sum of
    // each file's own time, which is above the wall when files ran side by side.
    lines.push('| Jest project | files | tests | wall | sum of files |', '|---|---|---|---|---|');
    for (const [name, p] of projects)
      lines.push(`| ${name} | ${p.files} | ${p.tests} | ${secs((p.end - p.start) / 1000)} | ${secs(p.busy)} |`);
    lines.push('');
  }
  const slow = [...files].sort((a, b) => b.seconds - a.seconds).slice(0, slowest);
  if (slow.length > 0) {
    lines.push(`| ${slow.length} slowest test files | project | tests | wall |`, '|---|---|---|---|');
    for (const f of slow) lines.push(`| ${f.file} | ${f.project} | ${f.tests} | ${secs(f.seconds)} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [dir, checkout] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/test-report.mjs <folder of Jest --json reports> [<checkout they were made in>]');
    process.exit(2);
  }
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => filesOfReport(join(dir, f), checkout));
  console.log(renderReport({ steps: [], files }));
}
