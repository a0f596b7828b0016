import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXED_BUGS, KNOWN_BUGS } from './knownBugs';
import { createTotals, runSchedule, ScheduleViolation } from './runSchedule';
import { describeSchedule, printable, scheduleArbitrary } from './schedule';

// FC_SEED (with FC_PATH, the shrunk path of a report) replays a failure; FC_RUNS and FC_STEPS trade depth for
// time; MODEL_STRICT=1 tolerates no known bug, MODEL_TOLERATE=id,id only those.
const SEED = Number(process.env.FC_SEED ?? 20_260_101);
const NUM_RUNS = Number(process.env.FC_RUNS ?? 10_000);
const MAX_STEPS = Number(process.env.FC_STEPS ?? 40);
const PATH = process.env.FC_PATH;
const TOLERATE = process.env.MODEL_STRICT
  ? []
  : process.env.MODEL_TOLERATE !== undefined
    ? KNOWN_BUGS.filter((bug) => process.env.MODEL_TOLERATE!.split(',').includes(bug.id))
    : KNOWN_BUGS;

// One session on a plain store; one, two and three sessions on one store shared through shareTokenStore; and the
// same three on a store that keeps only the two tokens (no receivedAt), where a skewed server clock makes every
// followed pair look expired.
const SETUPS = [
  { instances: 1, shared: false, dropsReceivedAt: false },
  { instances: 1, shared: true, dropsReceivedAt: false },
  { instances: 2, shared: true, dropsReceivedAt: false },
  { instances: 3, shared: true, dropsReceivedAt: false },
  { instances: 1, shared: true, dropsReceivedAt: true },
  { instances: 2, shared: true, dropsReceivedAt: true },
  { instances: 3, shared: true, dropsReceivedAt: true },
] as const;

describe('the real session and links against a model of the spec server, under random interleavings', () => {
  it.each(SETUPS)(
    `keeps every invariant over ${NUM_RUNS} seeded schedules of up to ${MAX_STEPS} steps, $instances session(s), shared: $shared, drops receivedAt: $dropsReceivedAt`,
    { timeout: 300_000 },
    async ({ instances, shared, dropsReceivedAt }) => {
      const totals = createTotals();
      const started = performance.now();
      console.log(
        `model: instances=${instances} shared=${shared} dropsReceivedAt=${dropsReceivedAt} seed=${SEED} numRuns=${NUM_RUNS} maxSteps=${MAX_STEPS}${PATH ? ` path=${PATH}` : ''} tolerate=[${TOLERATE.map((bug) => bug.id).join(', ')}]`,
      );
      try {
        await fc.assert(
          fc.asyncProperty(
            scheduleArbitrary(MAX_STEPS).map((schedule) => printable({ ...schedule, instances, dropsReceivedAt })),
            (schedule) => runSchedule(schedule, { totals, tolerate: TOLERATE, shared }),
          ),
          { numRuns: NUM_RUNS, seed: SEED, ...(PATH && { path: PATH }) },
        );
      } finally {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`model: ${totals.schedules} schedules in ${seconds} s; totals ${JSON.stringify(totals)}`);
      }
      expect(totals.violations).toBe(0);
      // The generator must keep reaching the hard cases, or passing means little.
      if (NUM_RUNS >= 1_000) {
        for (const key of [
          'replays',
          'rotations',
          'lostResponses',
          'timedOutRequests',
          'networkFailures',
          'http502',
          'reuseDetections',
          'logoutsWithRefreshInFlight',
          'timersFiredLate',
          'operationsCancelled',
          'sessionsEndedRejected',
        ] as const) {
          expect(totals[key], key).toBeGreaterThan(NUM_RUNS / 100);
        }
      }
    },
  );
});

describe('the checker', () => {
  it('passes a schedule where a lost refresh answer forces the one unavoidable resubmission', async () => {
    // The answer to r1 is lost after the rotation; the next refresh has only r1 to send, and the service
    // answers it as reuse: the session ends cleanly, and the resubmission is the exempted kind.
    const totals = createTotals();
    const schedule = printable({
      instances: 1,
      skewMs: 0,
      initial: 'fresh',
      expiredAs: 'result',
      steps: [
        { kind: 'refresh', instance: 0 },
        { kind: 'deliver', pick: 0, outcome: 'lost' },
        { kind: 'op', instance: 0 },
        { kind: 'refresh', instance: 0 },
        { kind: 'deliver', pick: 0, outcome: 'ok' },
      ],
    });
    await runSchedule(schedule, { totals });
    expect(totals).toMatchObject({ lostResponses: 1, reuseDetections: 1, sessionsEndedRejected: 1, violations: 0 });
  });

  it('prints a schedule as numbered steps', () => {
    const text = describeSchedule(
      KNOWN_BUGS[0]?.minimal ?? {
        instances: 1,
        skewMs: 0,
        initial: 'fresh',
        expiredAs: 'result',
        steps: [{ kind: 'fire' }],
      },
    );
    expect(text).toMatch(/^Schedule\(instances=\d .*\) \[\n {2}0: /);
  });
});

// Each bug found in src and not fixed yet: its minimal schedule, run with no tolerance. The test fails only
// with that bug's symptom, so `.fails` keeps it green; once src is fixed it passes, `.fails` turns it red, and
// the bug is to be removed from KNOWN_BUGS (which also stops the property above from tolerating it).
describe.runIf(KNOWN_BUGS.length > 0)(
  'known src bugs, not fixed yet (see test/model/knownBugs.ts and docs/reliability.md)',
  () => {
    for (const bug of KNOWN_BUGS) {
      it.fails(
        `${bug.id}: its ${bug.minimal.steps.length}-step minimal schedule breaks ${bug.symptoms.join(', ')}`,
        async () => {
          const trace = process.env.MODEL_TRACE ? (line: string) => console.log(line) : undefined;
          const error = await runSchedule(printable(bug.minimal), { trace }).then(
            () => undefined,
            (caught: unknown) => caught,
          );
          const symptom = new RegExp(`\\[(${bug.symptoms.join('|')})\\]`);
          if (error instanceof ScheduleViolation && symptom.test(error.message)) throw error;
        },
      );
    }
  },
);

// Bugs the model found that src has fixed since: their minimal schedules, held to every invariant.
describe('regressions: minimal schedules of src bugs fixed since the model found them', () => {
  for (const bug of FIXED_BUGS) {
    it(`${bug.id} (fixed in ${bug.fixedIn}): its ${bug.minimal.steps.length}-step schedule keeps every invariant`, async () => {
      await runSchedule(printable(bug.minimal));
    });
  }
});
