import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { keptSection, SOAK_SECTION, withSection } from '../../bench/resultsSection.ts';
import type { SoakSummary } from './writeReport.ts';

const RESULTS = new URL('../../bench/RESULTS.md', import.meta.url);
const HEADER =
  '| Seed | Minutes | Tabs + worker | Sessions | Logins | Refreshes | Operations (failed) | Faults | Invariants passed | Violations | Wall time |';

/** A run's row in the soak's table. */
function row(summary: SoakSummary): string {
  const violations = summary.invariants.reduce((sum, each) => sum + each.violations, 0);
  const faults = Object.values(summary.faults).reduce((sum, each) => sum + each, 0);
  return `| ${summary.seed} | ${summary.minutes} | ${summary.tabs} + 1 | ${summary.sessions} | ${summary.logins} | ${summary.refreshes} | ${summary.operations.settled} (${summary.operations.failed}) | ${faults} | ${summary.passed} of ${summary.passed + summary.failed}${
    summary.failed
      ? ` (failed: ${summary.invariants
          .filter((each) => !each.passed)
          .map((each) => each.name)
          .join(', ')})`
      : ''
  } | ${violations} | ${Math.round(summary.wallSeconds / 60)} min |`;
}

/**
 * Puts the run into bench/RESULTS.md's soak section: one row per seed and length (a run again replaces its
 * row), under what the soak does.
 */
export async function writeResultsSection(summary: SoakSummary): Promise<void> {
  const text = await readFile(RESULTS, 'utf8').catch(() => '');
  const rows = keptSection(text, SOAK_SECTION)
    .split('\n')
    .filter((line) => /^\| \d+ \| /.test(line) && !line.startsWith(`| ${summary.seed} | ${summary.minutes} |`));
  rows.push(row(summary));
  rows.sort();
  const faults = Object.entries(summary.faults)
    .map(([kind, count]) => `${kind} ×${count}`)
    .join(', ');
  const body = [
    '## 6. Soak: a day in the life, in real browsers, with faults',
    '',
    `Measured with \`npm run soak -- --minutes N --seed S --results\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version};`,
    'everything (the API, 2 token handler instances, Redis, Next.js, Vite, Chromium with 6 tabs, the worker) on the same',
    'cores. The API issues 10 s access tokens; each tab sends a query every 1 to 3 s, the worker one every 2 s. What',
    'the soak does, its faults and its invariants: docs/soak.md and `scripts/soak/`.',
    '',
    HEADER,
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Faults of the last run (seed ${summary.seed}, ${summary.minutes} min): ${faults}.`,
  ].join('\n');
  await writeFile(RESULTS, withSection(text, SOAK_SECTION, body));
}
