import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_BUGS } from './knownBugs';
import { createTotals, runSchedule } from './runSchedule';
import { printable, scheduleArbitrary } from './schedule';

// FC_SEED (with FC_PATH, the shrunk path of a report) replays a failure; FC_RUNS and FC_STEPS trade depth for
// time; MODEL_STRICT=1 tolerates no known bug, MODEL_TOLERATE=id,id only those.
const SEED = Number(process.env.FC_SEED ?? 20_260_101);
const NUM_RUNS = Number(process.env.FC_RUNS ?? 10_000);
const MAX_STEPS = Number(process.env.FC_STEPS ?? 40);
const PATH = process.env.FC_PATH;

/** How many sessions share the store, whether it is shared at all, and whether it keeps `receivedAt`. */
export interface Setup {
  readonly instances: 1 | 2 | 3;
  readonly shared: boolean;
  readonly dropsReceivedAt: boolean;
}

/** The known bugs a run tolerates (none with MODEL_STRICT=1). */
export const TOLERATE = process.env.MODEL_STRICT
  ? []
  : process.env.MODEL_TOLERATE !== undefined
    ? KNOWN_BUGS.filter((bug) => process.env.MODEL_TOLERATE!.split(',').includes(bug.id))
    : KNOWN_BUGS;

/**
 * The property: for each of `setups`, NUM_RUNS seeded schedules keep every invariant, and reach the hard cases.
 * Each file of the model holds some set-ups, so that the test runner's workers share them.
 */
export function describeProperty(setups: readonly Setup[]): void {
  describe('the real session and links against a model of the spec server, under random interleavings', () => {
    it.each(setups)(
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
}
