import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { keptSection, SOAK_SECTION, withSection } from '../../bench/resultsSection.ts';
import { formatCosts } from './formatCosts.ts';
import { LATE_MS } from './measureTabCosts.ts';
import type { SoakSummary } from './writeReport.ts';

const RESULTS = new URL('../../bench/RESULTS.md', import.meta.url);
const HEADER =
  '| Seed | Minutes | Tabs + worker | Sessions | Logins | Refreshes | Operations (failed) | Faults | Invariants passed | Violations | Wall time |';

/** The soak's access tokens unless a run says otherwise, in s. */
const DEFAULT_TTL = 10;

/** A run's Minutes cell: its length, and its tokens' lifetime when they are not the default's. */
const minutesCell = (summary: SoakSummary) =>
  summary.accessTokenTtl === DEFAULT_TTL
    ? `${summary.minutes}`
    : `${summary.minutes}, ${summary.accessTokenTtl} s tokens`;

/** The name of a run's per-tab table in the section (its markers'). */
const tabsName = (summary: SoakSummary) =>
  `soak tabs: seed ${summary.seed}, ${summary.minutes} min, ${summary.accessTokenTtl} s tokens`;

/** What a day costs each tab of a run, as a table under its own markers (kept when another run is written). */
export function tabsTable(summary: SoakSummary): string {
  const rows = summary.costs.map((figures) => {
    const text = formatCosts(figures);
    return `| ${figures.tab} | ${text.refreshesPerHour} | ${text.pairsPerHour} | ${text.lateness} | ${figures.lateness ? `${figures.lateness.late} of ${figures.lateness.count}` : '–'} | ${text.onDemand} (${text.onDemandShare}) | ${text.failedOutsideFaults} |`;
  });
  return [
    `<!-- ${tabsName(summary)} -->`,
    `#### Seed ${summary.seed}, ${summary.minutes} min, ${summary.accessTokenTtl} s access tokens`,
    '',
    `| Tab | Refreshes/h | New pairs/h | Scheduled refresh late: p50 / p95 / max (% of the lifetime) | Over ${LATE_MS / 1000} s late | Lifetimes ended on demand | Failed outside faults |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
    `<!-- /${tabsName(summary)} -->`,
  ].join('\n');
}

/** The per-tab tables of the runs a section holds, by name. */
function keptTabsTables(section: string): Map<string, string> {
  const tables = new Map<string, string>();
  for (const [, name] of section.matchAll(/<!-- (soak tabs: [^>]*?) -->/g)) {
    const table = keptSection(section, name!).trim();
    if (table) tables.set(name!, table);
  }
  return tables;
}

/** A run's row in the soak's table. */
function row(summary: SoakSummary): string {
  const violations = summary.invariants.reduce((sum, each) => sum + each.violations, 0);
  const faults = Object.values(summary.faults).reduce((sum, each) => sum + each, 0);
  return `| ${summary.seed} | ${minutesCell(summary)} | ${summary.tabs} + 1 | ${summary.sessions} | ${summary.logins} | ${summary.refreshes} | ${summary.operations.settled} (${summary.operations.failed}) | ${faults} | ${summary.passed} of ${summary.passed + summary.failed}${
    summary.failed
      ? ` (failed: ${summary.invariants
          .filter((each) => !each.passed)
          .map((each) => each.name)
          .join(', ')})`
      : ''
  } | ${violations} | ${Math.round(summary.wallSeconds / 60)} min |`;
}

/**
 * Puts the run into bench/RESULTS.md's soak section: one row per seed, length and token lifetime (a run again
 * replaces its row), under what the soak does, and what a day cost each of its tabs.
 */
export async function writeResultsSection(summary: SoakSummary): Promise<void> {
  const text = await readFile(RESULTS, 'utf8').catch(() => '');
  const section = keptSection(text, SOAK_SECTION);
  const rows = section
    .split('\n')
    .filter((line) => /^\| \d+ \| /.test(line) && !line.startsWith(`| ${summary.seed} | ${minutesCell(summary)} |`));
  rows.push(row(summary));
  rows.sort();
  const tables = keptTabsTables(section);
  tables.set(tabsName(summary), tabsTable(summary));
  const faults = Object.entries(summary.faults)
    .map(([kind, count]) => `${kind} ×${count}`)
    .join(', ');
  const body = [
    '## 6. Soak: a day in the life, in real browsers, with faults',
    '',
    `Measured with \`npm run soak -- --minutes N --seed S --results\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version};`,
    'everything (the API, 2 token handler instances, Redis, Next.js, Vite, Chromium with 6 tabs, the worker) on the same',
    `cores. The API issues ${DEFAULT_TTL} s access tokens unless Minutes says otherwise (\`--access-token-ttl\`); each tab sends a`,
    'query every 1 to 3 s, the worker one every 2 s. What the soak does, its faults and its invariants: docs/soak.md',
    'and `scripts/soak/`.',
    '',
    HEADER,
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Faults of the last run (seed ${summary.seed}, ${summary.minutes} min): ${faults}.`,
    '',
    '### What a day costs, per tab',
    '',
    'Per tab and the worker (`scripts/soak/measureTabCosts.ts`), from the refreshes its session reported',
    "(`auth.observe`) and its state's schedule: refreshes it sent that brought a pair, and the new pairs it took",
    '(its own and those another tab stored), per hour of the run; how late each refresh the schedule asked for',
    "(`proactive`, `resume`) started after its `refreshAt`, in ms and in % of the token's lifetime; of the lifetimes",
    'that ended with a new pair of the same user, those renewed by a refresh on demand here (`token-expired`,',
    '`expired-locally`, `check`, `socket`); operations failed outside every fault window (+2 s).',
    '',
    ...[...tables.keys()].sort().flatMap((name) => [tables.get(name)!, '']),
  ].join('\n');
  await writeFile(RESULTS, withSection(text, SOAK_SECTION, body));
}
