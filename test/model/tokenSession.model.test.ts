import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTotals, runSchedule } from './runSchedule';
import { printable, scheduleArbitrary, type Schedule } from './schedule';

// FC_SEED replays a reported failure (with FC_PATH, its shrunk path); FC_RUNS and FC_STEPS trade depth for time.
const SEED = Number(process.env.FC_SEED ?? 20_260_101);
const NUM_RUNS = Number(process.env.FC_RUNS ?? 10_000);
const MAX_STEPS = Number(process.env.FC_STEPS ?? 28);
const PATH = process.env.FC_PATH;

describe('the real session and links against a model of the spec server, under random interleavings', () => {
  it(`keeps every invariant over ${NUM_RUNS} seeded schedules`, { timeout: 180_000 }, async () => {
    const totals = createTotals();
    const started = performance.now();
    console.log(`model: seed=${SEED} numRuns=${NUM_RUNS} maxSteps=${MAX_STEPS}${PATH ? ` path=${PATH}` : ''}`);
    try {
      await fc.assert(
        fc.asyncProperty(scheduleArbitrary(MAX_STEPS), (schedule) => runSchedule(schedule, totals)),
        { numRuns: NUM_RUNS, seed: SEED, ...(PATH && { path: PATH }), endOnFailure: false },
      );
    } finally {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`model: ${seconds} s, totals ${JSON.stringify(totals)}`);
    }
    expect(totals.violations).toBe(0);
  });
});
