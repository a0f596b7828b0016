import { describe, expect, it } from 'vitest';
import { FIXED_BUGS, KNOWN_BUGS, type KnownBug } from './knownBugs';
import { describeProperty } from './describeProperty';
import { createTotals, runSchedule, ScheduleViolation } from './runSchedule';
import { describeSchedule, printable } from './schedule';

// One session, on a plain store and on one shared through shareTokenStore, and shared on a store that keeps only
// the two tokens (no receivedAt), where a skewed server clock makes every followed pair look expired. Two and three
// sessions sharing a store: twoSessions.model.test.ts and threeSessions.model.test.ts.
describeProperty([
  { instances: 1, shared: false, dropsReceivedAt: false },
  { instances: 1, shared: true, dropsReceivedAt: false },
  { instances: 1, shared: true, dropsReceivedAt: true },
]);

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
    const text = describeSchedule({
      instances: 1,
      skewMs: 0,
      initial: 'fresh',
      expiredAs: 'result',
      steps: [{ kind: 'fire' }],
    });
    expect(text).toMatch(/^Schedule\(instances=1 .*\) \[\n {2}0: /);
  });
});

/**
 * Whether `bug`'s minimal schedule, run with no tolerance, breaks one of the invariants it is known to break:
 * only then does its `.fails` test below stay green.
 */
async function showsSymptom(bug: KnownBug): Promise<boolean> {
  const trace = process.env.MODEL_TRACE ? (line: string) => console.log(line) : undefined;
  const error = await runSchedule(printable(bug.minimal), { trace }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return error instanceof ScheduleViolation && new RegExp(`\\[(${bug.symptoms.join('|')})\\]`).test(error.message);
}

// Each bug found in src and not fixed yet: its minimal schedule, run with no tolerance. The test fails only
// with that bug's symptom, so `.fails` keeps it green; once src is fixed it passes, `.fails` turns it red, and
// the bug is to be removed from KNOWN_BUGS (which also stops the property above from tolerating it).
describe('known src bugs, not fixed yet (see test/model/knownBugs.ts and docs/reliability.md)', () => {
  // Said here in so many words: while the list is empty the property tolerates nothing, and adding a bug to it
  // is a change this test makes visible.
  it('has no known bugs open', () => {
    expect(KNOWN_BUGS.map((bug) => bug.id)).toEqual([]);
  });

  it('tells a bug fixed since from an open one: a fixed bug listed as known shows no symptom, so its `.fails` test would turn red', async () => {
    for (const fixed of FIXED_BUGS) {
      const listed: KnownBug = { ...fixed, trigger: 'session-change-during-refresh', symptoms: ['logout-is-final'] };
      expect(await showsSymptom(listed), fixed.id).toBe(false);
    }
  });

  for (const bug of KNOWN_BUGS) {
    it.fails(
      `${bug.id}: its ${bug.minimal.steps.length}-step minimal schedule breaks ${bug.symptoms.join(', ')}`,
      async () => {
        if (await showsSymptom(bug)) throw new Error(`${bug.id} shows ${bug.symptoms.join(', ')}`);
      },
    );
  }
});

// Bugs the model found that src has fixed since: their minimal schedules, held to every invariant.
describe('regressions: minimal schedules of src bugs fixed since the model found them', () => {
  for (const bug of FIXED_BUGS) {
    it(`${bug.id} (fixed in ${bug.fixedIn}): its ${bug.minimal.steps.length}-step schedule keeps every invariant`, async () => {
      await runSchedule(printable(bug.minimal));
    });
  }
});
