import type { AppName, FaultKind } from './Journal.ts';
import type { Random } from './random.ts';

/** A fault the soak will cause: when (ms since the start), what, where, and for how long. */
export interface PlannedFault {
  readonly at: number;
  readonly kind: FaultKind;
  /** For a fault in a tab: its app and the tab's number (from 1). */
  readonly app?: Exclude<AppName, 'worker'>;
  readonly tab?: number;
  /** How long it lasts (offline, hidden, frozen, 503, slow) or how long the thing is down (restarts), in ms. */
  readonly duration: number;
}

export const TAB_FAULTS: readonly FaultKind[] = [
  'offline',
  'hidden',
  'frozen',
  'frozen-refreshing',
  'reload',
  'close-reopen',
  'sign-out-in',
  'switch-user',
  'back-forward',
];
export const SYSTEM_FAULTS: readonly FaultKind[] = [
  'api-503',
  'api-slow',
  'api-restart',
  'handler-restart',
  'redis-restart',
  'secret-rotation',
];

/** The token handler's grace for a rotation's answer (`graceTime`, 30 s): one sleep a run outlasts it. */
const HANDLER_GRACE = 30_000;

/** [min, max] duration of each kind whose time is not the token's, in s. */
const DURATION: Record<Exclude<FaultKind, 'sleep' | 'hidden' | 'back-forward'>, readonly [number, number]> = {
  offline: [5, 20],
  frozen: [10, 60],
  'frozen-refreshing': [10, 60],
  reload: [0, 0],
  'close-reopen': [2, 5],
  'sign-out-in': [1, 3],
  'switch-user': [1, 3],
  'api-503': [5, 15],
  'api-slow': [10, 20],
  'api-restart': [1, 3],
  'handler-restart': [2, 5],
  'redis-restart': [1, 3],
  // Twice the wait between two steps of the rollout (handler A, handler B, next start).
  'secret-rotation': [6, 16],
};

const SOAK_TOKEN_LIFE = 10_000;

/**
 * [min, max] of the kinds whose time is the token's, in ms: a tab hidden for one token's life at least, and past a
 * minute at most (when Chromium wakes a hidden page's chained timers once a minute); a page away for less than a
 * token's life, or for more.
 */
function inTokenLives(kind: FaultKind, life: number): readonly [number, number] | undefined {
  if (kind === 'hidden') return [life, Math.max(3 * life, 90_000)];
  if (kind === 'back-forward') return [0.3 * life, 2.5 * life];
  return undefined;
}

/**
 * The least time between two secret rotations, in ms: the ring keeps one old secret, so a cookie must be sealed
 * again (at a refresh) before the next rotation. A tab away longest (hidden for 3 token lives) and a refresh's
 * margin fit in it, whatever the token's life; a real deploy rotates far less often still.
 */
export function rotationGap(accessTokenTtlMs: number): number {
  return 4 * accessTokenTtlMs + 60_000;
}

/** Quiet at the start (everyone signs in and settles) and at the end (everything must have recovered). */
const QUIET_START = 20_000;
const QUIET_END = 25_000;

/**
 * Draws the faults of a run of `durationMs` from `random`: one every 8 to 14 s, the kinds dealt from a shuffled
 * deck so that every kind comes up before any comes twice, each in a random app and tab, and each over before the
 * quiet end; and the run's sleeps ({@link planSleeps}). A hidden tab and a page away last as long in token lives
 * whatever the token's life (`accessTokenTtlMs`), and a hidden tab sometimes past a minute. A secret rotation dealt
 * sooner than {@link rotationGap} after the last is dropped for the next card.
 */
export function planFaults(
  random: Random,
  durationMs: number,
  tabsPerApp: number,
  accessTokenTtlMs = SOAK_TOKEN_LIFE,
): PlannedFault[] {
  const plan: PlannedFault[] = planSleeps(durationMs, accessTokenTtlMs);
  let deck: FaultKind[] = [];
  let rotated = -Infinity;
  const last = durationMs - QUIET_END;
  for (let at = QUIET_START + random.between(0, 4000); at < last; at += random.between(8000, 14_000)) {
    let kind: FaultKind;
    do {
      if (deck.length === 0) deck = random.shuffle([...TAB_FAULTS, ...SYSTEM_FAULTS]);
      kind = deck.pop()!;
    } while (kind === 'secret-rotation' && at - rotated < rotationGap(accessTokenTtlMs));
    if (kind === 'secret-rotation') rotated = at;
    const [min, max] =
      inTokenLives(kind, accessTokenTtlMs) ?? DURATION[kind as keyof typeof DURATION].map((s) => s * 1000);
    const start = Math.round(at);
    const duration = Math.min(Math.round(random.between(min!, max!)), last - start);
    const inTab = TAB_FAULTS.includes(kind);
    plan.push({
      at: start,
      kind,
      duration,
      ...(inTab && {
        app: random.pick(['nextjs', 'vite-spa'] as const),
        tab: 1 + Math.floor(random.next() * tabsPerApp),
      }),
    });
  }
  return plan.sort((a, b) => a.at - b.at);
}

/**
 * The run's sleeps, spread evenly over it: one every 10 minutes, asleep a third of the run at most, and at least
 * one; each 1.2 times the token's life, and the first outlasts the token handler's grace as well, so that a wake
 * meets a handler that gave up waiting.
 */
export function planSleeps(durationMs: number, accessTokenTtlMs: number): PlannedFault[] {
  const span = durationMs - QUIET_START - QUIET_END;
  const life = Math.round(accessTokenTtlMs * 1.2);
  const count = Math.max(1, Math.min(Math.floor(durationMs / 600_000), Math.floor(span / (3 * life))));
  const sleeps: PlannedFault[] = [];
  for (let index = 0; index < count; index++) {
    const duration = index === 0 ? Math.max(life, HANDLER_GRACE + 10_000) : life;
    const at = Math.round(QUIET_START + (span * (index + 0.5)) / count - duration / 2);
    if (at >= QUIET_START && at + duration <= durationMs - QUIET_END) sleeps.push({ at, kind: 'sleep', duration });
  }
  return sleeps;
}
