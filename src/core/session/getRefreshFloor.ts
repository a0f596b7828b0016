import type { TokenSchedule } from '../tokens/getTokenSchedule';
import type { RefreshTrigger } from './TokenAuthOptions';

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

/** The floor before the first refresh of a session. */
export const NO_REFRESH: FloorState = { last: -Infinity, credit: FLOOR_BURST };

/**
 * When a refresh that `trigger` asks for at `now` may go out, under a floor of `floor` ms between refreshes.
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
export function getRefreshFloor(
  trigger: RefreshTrigger,
  now: number,
  floor: number,
  state: FloorState,
  schedule?: TokenSchedule | null,
): number {
  if (trigger === 'manual' || trigger === 'socket') return now;
  if (trigger === 'token-expired' || trigger === 'check') {
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
