/** The apps of the soak, and the worker. */
export type AppName = 'nextjs' | 'vite-spa' | 'worker';

/** A fault's kind: in one tab, or in the system every tab depends on. */
export type FaultKind =
  | 'offline'
  | 'hidden'
  | 'frozen'
  | 'frozen-refreshing'
  | 'reload'
  | 'close-reopen'
  | 'sign-out-in'
  | 'switch-user'
  | 'back-forward'
  | 'sleep'
  | 'api-503'
  | 'api-slow'
  | 'api-restart'
  | 'handler-restart'
  | 'redis-restart'
  | 'secret-rotation';

/** A fault as it ran: from `start` to `end` (ms since the soak's start). */
export interface FaultRecord {
  readonly id: number;
  readonly kind: FaultKind;
  /** The tab (`nextjs#2`), or what it hit (`api`, `handler B`, `redis`); named once known (the tab that refreshed). */
  target: string;
  /** The app whose tab it hit; absent for a fault of the system. */
  readonly app?: AppName;
  readonly start: number;
  end: number;
  /** What it did, for the report (the user switched to, the instance killed, the error if it failed to run). */
  note?: string;
  /** A sleep's wake: when its tabs began to thaw (its end is once every tab shows again). */
  wake?: number;
}

/** An operation of the workload, from the tab (or the worker) that sent it. */
export interface OperationRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly id: number;
  /** A mutation (`renameClub`); absent for the query (`me`). */
  readonly kind?: 'mutation';
  /** A mutation's club name: unique to it, so the API's runs of it can be counted. */
  readonly name?: string;
  readonly start: number;
  end?: number;
  ok?: boolean;
  error?: string;
  /** The e-mail `me` answered with. */
  user?: string;
  /** The user the tab showed when the answer came. */
  screen?: string;
}

/** A subscription event shown in a tab (`ticker`): the user it is for, and the user the screen showed then. */
export interface TickRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly t: number;
  readonly n: number;
  readonly email: string;
  readonly screen: string;
}

/** What a tab shows: a user's e-mail, `signed-out`, or `loading` (restoring, rendering, closed). */
export interface ScreenRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly t: number;
  readonly screen: string;
}

/** A change of a tab's session state, as `auth.getState()` gave it. */
export interface StateRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly t: number;
  readonly status: string;
  readonly user: string | null;
  /** When the access token expires, in the page's ms since the epoch (compared, never placed on the timeline). */
  readonly expiresAt: number | null;
  /** When the proactive refresh of the pair is due (the session's `refreshAt`), in ms since the soak's start. */
  readonly refreshAt: number | null;
  readonly ended: string | null;
  readonly retry: string | null;
  /** The page load that reported it (the probe's id of the document); absent for the worker. */
  readonly load?: string;
}

/**
 * A stretch in which the soak itself held a tab's main thread (a heap snapshot: V8 collects garbage and serialises
 * the heap in the renderer, so the page handles no timer, no BroadcastChannel message and no answer until it ends).
 * Not a fault: no person or system does this to a tab; the tab catches up when it ends.
 */
export interface PauseRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly start: number;
  end: number;
  readonly why: 'heap-snapshot';
}

/**
 * A page back from elsewhere (`pageshow` after a `back-forward` fault): restored from the back/forward cache
 * (`persisted`), or loaded anew.
 */
export interface ReturnRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly t: number;
  readonly persisted: boolean;
}

/** A request that went out with an access token already past its `exp` by the page's clock. */
export interface DeadTokenRecord {
  readonly tab: string;
  readonly app: AppName;
  readonly t: number;
  /** How long past its `exp` the token was, in ms. */
  readonly late: number;
}

/**
 * A refresh that settled in a tab (or the worker), as the session's own `refresh` event (`auth.observe`) told it:
 * what started it, what it came to, and when it was asked for and when it settled.
 */
export interface RefreshRecord {
  readonly tab: string;
  readonly app: AppName;
  /** When it settled, in ms since the soak's start. */
  readonly t: number;
  /** When it was asked for (its timer fired, an operation found the token dead…): `t` less the event's `ms`. */
  readonly asked: number;
  /** What started it (the package's `RefreshTrigger`: `proactive`, `resume`, `token-expired`…). */
  readonly trigger: string;
  /** What it came to (`rotated`, `adopted`, `failed`, `rejected`, `no-session`, `superseded`). */
  readonly outcome: string;
}

/** Anything else worth a line in the log. */
export interface NoteRecord {
  readonly t: number;
  readonly kind: string;
  readonly tab?: string;
  readonly app?: AppName;
  readonly text: string;
}

/** A refresh (or a login) the API answered, with the session id of the pair it issued. */
export interface SessionRecord {
  readonly t: number;
  readonly kind: 'login' | 'refresh' | 'logout';
  readonly sid: string;
  readonly user: string;
  readonly app: AppName;
}

/** Everything that happened in a soak, in ms since its start. */
export class Journal {
  readonly startedAt = Date.now();
  readonly faults: FaultRecord[] = [];
  readonly operations: OperationRecord[] = [];
  readonly screens: ScreenRecord[] = [];
  readonly states: StateRecord[] = [];
  readonly notes: NoteRecord[] = [];
  readonly sessions: SessionRecord[] = [];
  readonly ticks: TickRecord[] = [];
  /** The pages back from elsewhere (`back-forward`). */
  readonly returns: ReturnRecord[] = [];
  /** The requests that went out with a token dead by the clock. */
  readonly deadTokens: DeadTokenRecord[] = [];
  /** The refreshes each tab's (and the worker's) session ran, with their trigger and outcome. */
  readonly refreshes: RefreshRecord[] = [];
  /** The stretches in which the soak held a tab's main thread (its heap snapshots). */
  readonly pauses: PauseRecord[] = [];
  /** How many times the API ran each mutation (`renameClub` answered with data), by its club name. */
  readonly runs = new Map<string, number>();
  /** Heap samples per tab: [ms, bytes, page load number]. */
  readonly heap = new Map<string, Array<[number, number, number]>>();
  /** The tabs, in the order they opened. */
  readonly tabs: Array<{ tab: string; app: AppName }> = [];
  private nextFault = 1;

  /** ms since the start. */
  now(): number {
    return Date.now() - this.startedAt;
  }

  /** ms since the start of a wall-clock time (ms since the epoch). */
  at(epochMs: number): number {
    return epochMs - this.startedAt;
  }

  startFault(kind: FaultKind, target: string, app?: AppName): FaultRecord {
    const fault: FaultRecord = {
      id: this.nextFault++,
      kind,
      target,
      ...(app && { app }),
      start: this.now(),
      end: Number.NaN,
    };
    this.faults.push(fault);
    this.note('fault', `${kind} ${target} starts`, undefined, app);
    return fault;
  }

  endFault(fault: FaultRecord, note?: string): void {
    fault.end = this.now();
    if (note) fault.note = note;
    this.note(
      'fault',
      `${fault.kind} ${fault.target} ends after ${((fault.end - fault.start) / 1000).toFixed(1)} s${note ? ` (${note})` : ''}`,
      undefined,
      fault.app,
    );
  }

  note(kind: string, text: string, tab?: string, app?: AppName, t = this.now()): void {
    this.notes.push({ t, kind, text, ...(tab && { tab }), ...(app && { app }) });
    if (process.env['SOAK_VERBOSE'])
      console.log(`${(t / 1000).toFixed(1).padStart(7)} s  ${tab ?? app ?? ''} ${kind}: ${text}`);
  }
}
