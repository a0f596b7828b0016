import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InvariantResult } from './checkInvariants.ts';
import type { FaultRecord, Journal } from './Journal.ts';
import { formatCosts, formatMs } from './formatCosts.ts';
import { LATE_MS, measureTabCosts, type TabCosts, type TabFigures } from './measureTabCosts.ts';
import type { SoakOptions } from './options.ts';

/** The figures of a run, as summary.json holds them. */
export interface SoakSummary {
  readonly seed: number;
  readonly minutes: number;
  /** The access tokens' lifetime, in s. */
  readonly accessTokenTtl: number;
  readonly startedAt: string;
  readonly wallSeconds: number;
  readonly tabs: number;
  readonly sessions: number;
  readonly logins: number;
  readonly refreshes: number;
  readonly operations: { readonly settled: number; readonly failed: number; readonly unsettled: number };
  readonly faults: Record<string, number>;
  readonly invariants: ReadonlyArray<{
    name: string;
    title: string;
    passed: boolean;
    measured: string;
    violations: number;
  }>;
  readonly passed: number;
  readonly failed: number;
  /** What a day costs each tab and the worker (`measureTabCosts`). */
  readonly costs: readonly TabFigures[];
}

const WIDTH = 1100;
const LEFT = 90;
const ROW = 78;
const COLORS = ['#4c78a8', '#59a14f', '#b07aa1', '#f28e2b', '#76b7b2'];

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Writes soak-report/index.html (a timeline per tab, the invariants) and soak-report/summary.json. */
export function writeReport(
  journal: Journal,
  results: InvariantResult[],
  options: SoakOptions,
  durationMs: number,
  wallSeconds: number,
): SoakSummary {
  const faults: Record<string, number> = {};
  for (const fault of journal.faults) faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
  const settled = journal.operations.filter((op) => op.ok !== undefined);
  const costs = measureTabCosts(journal, { durationMs, accessTokenTtlMs: options.accessTokenTtl * 1000 });
  const summary: SoakSummary = {
    seed: options.seed,
    minutes: options.minutes,
    accessTokenTtl: options.accessTokenTtl,
    startedAt: new Date(journal.startedAt).toISOString(),
    wallSeconds,
    tabs: journal.tabs.length,
    sessions: new Set(journal.sessions.map((each) => each.sid)).size,
    logins: journal.sessions.filter((each) => each.kind === 'login').length,
    refreshes: journal.sessions.filter((each) => each.kind === 'refresh').length,
    operations: {
      settled: settled.length,
      failed: settled.filter((op) => !op.ok).length,
      unsettled: journal.operations.filter((op) => op.ok === undefined && !op.error).length,
    },
    faults,
    invariants: results.map(({ name, title, passed, measured, violations }) => ({
      name,
      title,
      passed,
      measured,
      violations: violations.length,
    })),
    passed: results.filter((each) => each.passed).length,
    failed: results.filter((each) => !each.passed).length,
    costs: costs.map((each) => each.figures),
  };
  mkdirSync(options.out, { recursive: true });
  writeFileSync(
    join(options.out, 'summary.json'),
    `${JSON.stringify({ ...summary, violations: results.flatMap((each) => each.violations.map((v) => ({ invariant: each.name, ...v }))) }, null, 2)}\n`,
  );
  writeFileSync(join(options.out, 'index.html'), html(journal, results, summary, durationMs, costs));
  // Everything that happened, in order, for whoever reads a violation's story past the lines around it.
  const events = [
    ...journal.notes.map((each) => ({ ...each, type: 'note' })),
    ...journal.states.map((each) => ({ ...each, type: 'state' })),
    ...journal.screens.map((each) => ({ ...each, type: 'screen' })),
    ...journal.sessions.map((each) => ({ ...each, type: 'session' })),
    ...journal.refreshes.map((each) => ({ ...each, type: 'refresh' })),
    ...journal.operations.filter((op) => !op.ok).map((op) => ({ ...op, t: op.start, type: 'failed-operation' })),
    ...journal.operations
      .filter((op) => op.ok && op.kind === 'mutation')
      .map((op) => ({ ...op, t: op.start, runs: journal.runs.get(op.name!) ?? 0, type: 'mutation' })),
    ...journal.ticks.map((each) => ({ ...each, type: 'tick' })),
  ].sort((a, b) => a.t - b.t);
  writeFileSync(join(options.out, 'journal.jsonl'), events.map((each) => JSON.stringify(each)).join('\n') + '\n');
  return summary;
}

function html(
  journal: Journal,
  results: InvariantResult[],
  summary: SoakSummary,
  durationMs: number,
  costs: readonly TabCosts[],
): string {
  const users = [
    ...new Set(
      [...journal.screens.map((each) => each.screen), ...journal.sessions.map((each) => each.user)].filter((screen) =>
        screen.includes('@'),
      ),
    ),
  ];
  const colorOf = (screen: string) =>
    screen === 'signed-out'
      ? '#c9c9c9'
      : screen === 'loading'
        ? '#efefef'
        : COLORS[users.indexOf(screen) % COLORS.length]!;
  const x = (t: number) => LEFT + (Math.max(0, Math.min(t, durationMs)) / durationMs) * (WIDTH - LEFT - 10);
  const violations = results.flatMap((each) =>
    each.violations.map((violation) => ({ ...violation, invariant: each.name })),
  );
  const rows = [...journal.tabs, { tab: 'worker', app: 'worker' as const }];

  const axis = () => {
    const ticks: string[] = [];
    const step = durationMs > 10 * 60_000 ? 120_000 : durationMs > 4 * 60_000 ? 60_000 : 30_000;
    for (let t = 0; t <= durationMs; t += step)
      ticks.push(
        `<line x1="${x(t)}" x2="${x(t)}" y1="0" y2="${ROW - 8}" stroke="#e3e3e3"/><text x="${x(t)}" y="${ROW - 1}" font-size="9" text-anchor="middle" fill="#888">${t / 1000} s</text>`,
      );
    return ticks.join('');
  };
  const bar = (fault: FaultRecord, y: number, h: number, color: string) => {
    const end = Number.isNaN(fault.end) ? durationMs : fault.end;
    const w = Math.max(2, x(end) - x(fault.start));
    return (
      `<rect x="${x(fault.start)}" y="${y}" width="${w}" height="${h}" fill="${color}"><title>${escape(`${fault.kind} ${fault.target} ${(fault.start / 1000).toFixed(1)}–${(end / 1000).toFixed(1)} s${fault.note ? ` (${fault.note})` : ''}`)}</title></rect>` +
      (w > 40
        ? `<text x="${x(fault.start) + 2}" y="${y + h - 2}" font-size="8" fill="#fff">${escape(fault.kind)}</text>`
        : '')
    );
  };

  const timeline = ({ tab, app }: { tab: string; app: string }) => {
    const parts: string[] = [axis()];
    // Lane 1: faults of the system this app goes through (and the browser's sleep, the worker aside); lane 2:
    // faults in this app's tabs (this tab's darker).
    for (const fault of journal.faults.filter(
      (each) =>
        each.app === undefined &&
        (each.kind.startsWith('api-') || app === 'nextjs' || (each.kind === 'sleep' && app !== 'worker')),
    ))
      parts.push(bar(fault, 2, 11, '#e15759'));
    for (const fault of journal.faults.filter((each) => each.app === app))
      parts.push(bar(fault, 15, 11, fault.target === tab ? '#f28e2b' : '#f7c99b'));
    // Lane 3: what the tab showed.
    const worker = journal.sessions.find((each) => each.app === 'worker');
    const screens =
      tab === 'worker'
        ? worker
          ? [{ t: worker.t, screen: worker.user }]
          : []
        : journal.screens.filter((each) => each.tab === tab);
    screens.forEach((screen, index) => {
      const end = screens[index + 1]?.t ?? durationMs;
      parts.push(
        `<rect x="${x(screen.t)}" y="28" width="${Math.max(0.5, x(end) - x(screen.t))}" height="12" fill="${colorOf(screen.screen)}"><title>${escape(`${screen.screen} from ${(screen.t / 1000).toFixed(1)} s`)}</title></rect>`,
      );
    });
    // Refreshes: a new pair adopted by this tab (a new expiresAt), or the worker's at the API.
    const refreshes =
      tab === 'worker'
        ? journal.sessions.filter((each) => each.app === 'worker' && each.kind === 'refresh').map((each) => each.t)
        : journal.states
            .filter(
              (each, index, all) =>
                each.tab === tab &&
                each.expiresAt !== null &&
                all
                  .slice(0, index)
                  .filter((s) => s.tab === tab)
                  .at(-1)?.expiresAt !== each.expiresAt,
            )
            .map((each) => each.t);
    for (const t of refreshes)
      parts.push(
        `<path d="M${x(t) - 2.5},27 L${x(t) + 2.5},27 L${x(t)},31 Z" fill="#222"><title>new pair at ${(t / 1000).toFixed(1)} s</title></path>`,
      );
    // Lane 4: operations (queries green, mutations blue), failed ones taller and red.
    for (const op of journal.operations.filter((each) => each.tab === tab && each.ok !== undefined)) {
      parts.push(
        op.ok
          ? `<line x1="${x(op.end!)}" x2="${x(op.end!)}" y1="44" y2="50" stroke="${op.kind === 'mutation' ? '#4e79a7' : '#59a14f'}" stroke-width="1"/>`
          : `<line x1="${x(op.end!)}" x2="${x(op.end!)}" y1="42" y2="54" stroke="#d62728" stroke-width="2"><title>${escape(`failed at ${(op.end! / 1000).toFixed(1)} s: ${op.error}`)}</title></line>`,
      );
    }
    // Lane 5: refreshes the schedule asked for, a tick each, and from when it was due a bar for one over 1 s late;
    // refreshes on demand (an operation or a socket found the token dead) as red marks.
    const cost = costs.find((each) => each.figures.tab === tab);
    for (const refresh of cost?.scheduled ?? []) {
      const what = `${refresh.trigger} refresh due at ${(refresh.due / 1000).toFixed(1)} s, started ${formatMs(refresh.lateMs)} late (${((refresh.lateMs / (summary.accessTokenTtl * 1000)) * 100).toFixed(1)} % of the lifetime)`;
      parts.push(
        refresh.lateMs > LATE_MS
          ? `<rect x="${x(refresh.due)}" y="58" width="${Math.max(1.5, x(refresh.asked) - x(refresh.due))}" height="8" fill="#f28e2b"><title>${escape(what)}</title></rect>`
          : `<line x1="${x(refresh.asked)}" x2="${x(refresh.asked)}" y1="59" y2="65" stroke="#999" stroke-width="1"><title>${escape(what)}</title></line>`,
      );
    }
    for (const refresh of cost?.onDemand ?? [])
      parts.push(
        `<path d="M${x(refresh.t) - 3},67 L${x(refresh.t) + 3},67 L${x(refresh.t)},58 Z" fill="#d62728"><title>${escape(`refresh on demand (${refresh.trigger}), ${refresh.outcome} at ${(refresh.t / 1000).toFixed(1)} s`)}</title></path>`,
      );
    for (const violation of violations.filter((each) => each.tab === tab || (!each.tab && each.app === app))) {
      parts.push(
        `<line x1="${x(violation.t)}" x2="${x(violation.t)}" y1="0" y2="${ROW - 10}" stroke="#d62728" stroke-width="2" stroke-dasharray="3,2"><title>${escape(`${violation.invariant}: ${violation.text}`)}</title></line>`,
      );
    }
    const header = cost ? figuresLine(cost.figures) : '';
    return `<div class="figures">${header}</div><div class="row"><div class="name">${escape(tab)}</div><svg width="${WIDTH}" height="${ROW}" viewBox="0 0 ${WIDTH} ${ROW}"><text x="4" y="11" font-size="9" fill="#666">system</text><text x="4" y="24" font-size="9" fill="#666">tab faults</text><text x="4" y="38" font-size="9" fill="#666">screen</text><text x="4" y="51" font-size="9" fill="#666">operations</text><text x="4" y="65" font-size="9" fill="#666">refreshes</text>${parts.join('')}</svg></div>`;
  };

  const legend = [
    ...users.map((user) => `<span><i style="background:${colorOf(user)}"></i>${escape(user)}</span>`),
    `<span><i style="background:${colorOf('signed-out')}"></i>signed out</span>`,
    `<span><i style="background:${colorOf('loading')}"></i>loading / closed</span>`,
    '<span><i style="background:#e15759"></i>API, handler, Redis fault</span>',
    '<span><i style="background:#f28e2b"></i>fault in this tab</span>',
    '<span><i style="background:#f7c99b"></i>in another tab of the app</span>',
    '<span>▼ new pair</span>',
    '<span><i style="background:#59a14f"></i>operation</span>',
    '<span><i style="background:#d62728"></i>failed operation / violation (dashed)</span>',
    '<span><i style="background:#999"></i>refresh on schedule</span>',
    `<span><i style="background:#f28e2b"></i>scheduled refresh over ${LATE_MS / 1000} s late, from when it was due</span>`,
    '<span>▲ refresh on demand</span>',
  ].join('');

  const table = results
    .map(
      (each) =>
        `<tr class="${each.passed ? 'pass' : 'fail'}"><td>${each.passed ? 'passed' : 'FAILED'}</td><td>${escape(each.title)}</td><td>${each.violations.length}</td><td>${escape(each.measured)}</td></tr>`,
    )
    .join('');
  const details = violations
    .slice(0, 50)
    .map(
      (each) =>
        `<details><summary>${(each.t / 1000).toFixed(1)} s ${escape(each.tab ?? each.app ?? '')} <b>${escape(each.invariant)}</b>: ${escape(each.text)}</summary><pre>${escape((each.around ?? []).join('\n'))}</pre></details>`,
    )
    .join('');
  const faultRows = journal.faults
    .map(
      (fault) =>
        `<tr><td>${(fault.start / 1000).toFixed(1)} s</td><td>${Number.isNaN(fault.end) ? '' : `${((fault.end - fault.start) / 1000).toFixed(1)} s`}</td><td>${escape(fault.kind)}</td><td>${escape(fault.target)}</td><td>${escape(fault.note ?? '')}</td></tr>`,
    )
    .join('');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Soak: ${summary.passed} passed, ${summary.failed} failed</title>
<style>
body { font: 13px system-ui, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px; } .sub { color: #666; margin-bottom: 10px; }
.row { display: flex; align-items: center; } .name { width: 84px; font-weight: 600; font-size: 12px; }
.figures { margin: 6px 0 0 84px; font-size: 11px; color: #444; }
.legend span { margin-right: 12px; font-size: 11px; white-space: nowrap; } .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 3px; vertical-align: -1px; }
table { border-collapse: collapse; margin: 8px 0 16px; } td, th { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
tr.pass td:first-child { color: #2e7d32; font-weight: 600; } tr.fail td:first-child { color: #c62828; font-weight: 700; }
pre { font-size: 11px; background: #f6f6f6; padding: 6px; }
</style></head><body>
<h1>Soak: ${summary.passed} passed, ${summary.failed} failed</h1>
<div class="sub">seed ${summary.seed}, ${summary.minutes} min of workload on ${summary.accessTokenTtl} s access tokens, ${summary.tabs} tabs and a worker, ${summary.sessions} sessions, ${summary.logins} logins, ${summary.refreshes} refreshes, ${summary.operations.settled} operations (${summary.operations.failed} failed), ${journal.faults.length} faults; started ${summary.startedAt}</div>
<div class="legend">${legend}</div>
<div id="timelines">${rows.map(timeline).join('')}</div>
<h2>Invariants</h2>
<table><tr><th></th><th>Invariant</th><th>Violations</th><th>Measured</th></tr>${table}</table>
${details ? `<h2>Violations</h2>${details}` : ''}
<h2>Faults</h2>
<table><tr><th>At</th><th>For</th><th>Kind</th><th>Target</th><th>Note</th></tr>${faultRows}</table>
</body></html>
`;
}

/** A tab's figures, over its timeline. */
function figuresLine(figures: TabFigures): string {
  const text = formatCosts(figures);
  return escape(
    `${text.refreshesPerHour} refreshes/h (${text.pairsPerHour} new pairs/h) · scheduled refreshes late p50 / p95 / max ${text.lateness}${figures.lateness ? `, ${figures.lateness.late} of ${figures.lateness.count} over ${LATE_MS / 1000} s` : ''} · ${text.onDemand} lifetimes ended on demand (${text.onDemandShare}) · ${text.failedOutsideFaults} operations failed outside faults`,
  );
}
