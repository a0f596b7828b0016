import { describe, expect, it } from 'vitest';
import { getRefreshFloor, NO_REFRESH, spendFloor, type FloorState } from '../../../src/core/session/getRefreshFloor';
import type { RefreshTrigger } from '../../../src';

const FLOOR = 5_000;
// A refresh at 0 after a quiet spell: one credit left.
const justRotated: FloorState = spendFloor(0, FLOOR, NO_REFRESH);
// Two at 0 and 100: none left.
const twice: FloorState = spendFloor(100, FLOOR, justRotated);
// A 3-second token received at 0: refresh due at 1.7 s, dead at 3 s (or 2 s on the server, its claims being whole seconds).
const short = { expiresAt: 3_000, refreshAt: 1_700 };
// A 15-minute token received at 0.
const contract = { expiresAt: 900_000, refreshAt: 750_000 };

describe('getRefreshFloor: when a refresh may go out', () => {
  it.each<[string, RefreshTrigger, number, FloorState, typeof short | null, number]>([
    ['the first refresh after a login, whatever asks', 'proactive', 0, NO_REFRESH, contract, 0],
    ["the app's refresh(): at once, always", 'manual', 100, twice, contract, 100],
    ['./ws: at once, always', 'socket', 100, twice, contract, 100],
    ['TOKEN_EXPIRED right after a rotation: at once', 'token-expired', 300, justRotated, contract, 300],
    ['a check right after a rotation: at once', 'check', 300, justRotated, contract, 300],
    ['TOKEN_EXPIRED a third time in a storm: when a credit has refilled', 'token-expired', 200, twice, contract, 5_100],
    ['TOKEN_EXPIRED in a storm, half refilled', 'token-expired', 2_600, twice, contract, 5_100],
    ['the local clock after a rotation: the whole floor', 'expired-locally', 300, justRotated, contract, 5_000],
    ['a resume after a rotation: the whole floor', 'resume', 300, justRotated, contract, 5_000],
    ['a retry: the whole floor', 'retry', 300, justRotated, contract, 5_000],
    [
      'a proactive refresh of a 3-second token: on its own schedule, ahead of the floor',
      'proactive',
      1_700,
      justRotated,
      short,
      1_700,
    ],
    [
      'a storm that makes tokens look dead: the whole floor, never pulled ahead',
      'proactive',
      300,
      justRotated,
      { expiresAt: -60_000, refreshAt: -90_000 },
      5_000,
    ],
    [
      'a token so short its lead falls within 1 s of the last refresh: the whole floor',
      'proactive',
      300,
      justRotated,
      { expiresAt: 900, refreshAt: 700 },
      5_000,
    ],
    ['no schedule: the whole floor', 'expired-locally', 300, justRotated, null, 5_000],
  ])('%s', (_name, trigger, now, state, schedule, expected) => {
    expect(getRefreshFloor({ trigger, now, floor: FLOOR, state, schedule })).toBe(expected);
  });

  it('a storm of TOKEN_EXPIRED gets one refresh per floor, after the first two', () => {
    let state = NO_REFRESH;
    const sent: number[] = [];
    // The server refuses every new token at once: each refresh is asked for again 10 ms after it went out.
    let now = 0;
    while (now < 60_000) {
      now = getRefreshFloor({ trigger: 'token-expired', now, floor: FLOOR, state });
      sent.push(now);
      state = spendFloor(now, FLOOR, state);
      now += 10;
    }
    expect(sent.slice(0, 3)).toEqual([0, 10, 5_010]);
    for (let i = 2; i < sent.length; i++) expect(sent[i]! - sent[i - 1]!).toBeGreaterThanOrEqual(FLOOR);
    expect(sent.filter((at) => at < 60_000)).toHaveLength(13);
  });
});
