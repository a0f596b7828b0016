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
];
export const SYSTEM_FAULTS: readonly FaultKind[] = [
  'api-503',
  'api-slow',
  'api-restart',
  'handler-restart',
  'redis-restart',
  'secret-rotation',
];

/** [min, max] duration of each kind, in s. */
const DURATION: Record<FaultKind, readonly [number, number]> = {
  offline: [5, 20],
  hidden: [10, 30],
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

/** Quiet at the start (everyone signs in and settles) and at the end (everything must have recovered). */
const QUIET_START = 20_000;
const QUIET_END = 25_000;

/**
 * Draws the faults of a run of `durationMs` from `random`: one every 8 to 14 s, the kinds dealt from a shuffled
 * deck so that every kind comes up before any comes twice, each in a random app and tab, and each over before the
 * quiet end.
 */
export function planFaults(random: Random, durationMs: number, tabsPerApp: number): PlannedFault[] {
  const plan: PlannedFault[] = [];
  let deck: FaultKind[] = [];
  const last = durationMs - QUIET_END;
  for (let at = QUIET_START + random.between(0, 4000); at < last; at += random.between(8000, 14_000)) {
    if (deck.length === 0) deck = random.shuffle([...TAB_FAULTS, ...SYSTEM_FAULTS]);
    const kind = deck.pop()!;
    const [min, max] = DURATION[kind];
    const start = Math.round(at);
    const duration = Math.min(Math.round(random.between(min, max) * 1000), last - start);
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
  return plan;
}
