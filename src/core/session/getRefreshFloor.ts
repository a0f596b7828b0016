import type { TokenSchedule } from '../tokens/getTokenSchedule';
import { REFRESH_TRIGGERS, type RefreshTrigger } from './refreshTriggers';

/** What the floor remembers of the refreshes sent: when the last went out, and the credit left after it. */
export interface FloorState {
  /** When the last refresh went out (`-Infinity` for none since the login). */
  readonly last: number;
  /** Refreshes the server's word may still start at once, as of `last`: from 0 to {@link FLOOR_BURST}. */
  readonly credit: number;
}

/** How many refreshes the server's word (`TOKEN_EXPIRED`, a check) may start at once after a quiet spell. */
export const FLOOR_BURST = 2;
// A short-lived token renewed on its own schedule, ahead of the floor, still leaves this much between two refreshes.
const LEAST_GAP = 1_000;

/** What {@link getRefreshFloor} is asked. */
export interface FloorQuery {
  readonly trigger: RefreshTrigger;
  /** When the refresh is asked for. */
  readonly now: number;
  /** The floor between refreshes, in ms (the `refreshFloor` option). */
  readonly floor: number;
  readonly state: FloorState;
  /** The schedule of the pair to renew: a short-lived token is renewed on it, ahead of the floor. */
  readonly schedule?: TokenSchedule | null;
}

/** The floor before the first refresh of a session. */
export const NO_REFRESH: FloorState = { last: -Infinity, credit: FLOOR_BURST };

/**
 * When a refresh that `trigger` asks for at `now` may go out, under a floor of `floor` ms between refreshes.
 * How each trigger is timed is in {@link REFRESH_TRIGGERS}.
 *
 * @remarks
 * The floor is there to slow a storm, not a user:
 * - `manual` and `socket` (the app, `./ws`) go at once.
 * - The server's word on the current token (`token-expired`, `check`) spends a credit that refills at one per
 *   `floor`, up to {@link FLOOR_BURST}: one `TOKEN_EXPIRED` right after a rotation goes at once, and a server
 *   that refuses every new token gets one refresh per `floor`.
 * - What the local clock asks for (`proactive`, `retry`, `expired-locally`, `restore`, `resume`) waits `floor`
 *   after the last refresh, except for a token living less than that: its own schedule, which leaves a second
 *   for whole-second claims, so that 3-second tokens are renewed before they die; yet never within
 *   {@link LEAST_GAP} of the last, nor for a token that looks dead (a storm's, whose schedule lies in the past).
 */
export function getRefreshFloor({ trigger, now, floor, state, schedule }: FloorQuery): number {
  const timing = REFRESH_TRIGGERS[trigger].floor;
  if (timing === 'none') return now;
  if (timing === 'credit') {
    const credit = creditAt(now, floor, state);
    // Out of credit: a storm, one refresh per floor.
    return credit >= 1 ? now : Math.max(now + (1 - credit) * floor, state.last + floor);
  }
  const at = state.last + floor;
  const due = schedule?.refreshAt ?? Infinity;
  return Math.max(now, due < at && due >= state.last + LEAST_GAP ? due : at);
}

/** The floor after a refresh went out at `now`. */
export function spendFloor(now: number, floor: number, state: FloorState): FloorState {
  return { last: now, credit: Math.max(0, creditAt(now, floor, state) - 1) };
}

function creditAt(now: number, floor: number, { last, credit }: FloorState): number {
  return Math.min(FLOOR_BURST, credit + (now - last) / floor);
}
