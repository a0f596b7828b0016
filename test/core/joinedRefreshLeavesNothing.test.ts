import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { loggedIn } from '../helpers/session';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Every wait on a refresh that kept something for the session's lifetime would cost well over 100 bytes.
const JOINS = 50_000;
const BOUND = JOINS * 20;

async function heapUsed(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return getHeapStatistics().used_heap_size;
}

describe('a wait on a refresh', () => {
  // Each call joins the refresh in flight and waits for it or for dispose(): once it settled, the wait is gone. A
  // session lives as long as the page, and waits on refreshes come with every refresh and every expired token.
  it(`keeps nothing once the refresh settled: ${JOINS} waits grow the heap by less than ${BOUND / 1024} KB`, async () => {
    const { session, stub } = await loggedIn({ auto: false, refreshFloor: 0, refreshOnResume: false, timers: 'real' });
    // One refresh for all the waits: the `count`th.
    const answerRefresh = async (count: number) => {
      await vi.waitFor(() => expect(stub.of('refreshToken')).toHaveLength(count));
      stub.answer(stub.last('refreshToken'));
    };
    const warmUp = Array.from({ length: 1000 }, () => session.refresh());
    await answerRefresh(1);
    await Promise.all(warmUp);
    const before = await heapUsed();

    const waits = Array.from({ length: JOINS }, () => session.refresh());
    await answerRefresh(2);
    await Promise.all(waits);
    waits.length = 0;
    const growth = (await heapUsed()) - before;

    expect(session.getState().status).toBe('authenticated');
    expect(growth).toBeLessThan(BOUND);
    session.dispose();
  });
});
