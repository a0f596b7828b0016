/** Faults a test switches on by mutating `server.faults`. */
export interface TestAuthServerFaults {
  /**
   * Delay (ms, real time) before a top-level field ('refreshToken', 'me', 'clubs', 'ping',
   * 'loginWithEmailPassword', 'logout', or a sign-in door such as 'signIn') is resolved.
   */
  delayMs: Partial<Record<string, number>>;
  /**
   * Lost answers: the next N refreshToken calls are executed (a valid token is rotated), then the answer is
   * lost: `fetch` rejects with a `TypeError` as on a network failure, and over HTTP the socket is destroyed.
   */
  dropRefreshResponses: number;
  /**
   * Queue of raw responses (a 5xx, a gateway's HTML, a 401…): the next request selecting `field` (any request
   * without `field`) gets one, unexecuted.
   */
  failNext: Array<{ field?: string; status: number; body: string; contentType?: string }>;
  /** When true, refreshToken requests never answer, until the client aborts them or the server closes. */
  hangRefresh: boolean;
  /**
   * When true, refreshToken is refused with `INVALID_REFRESH_TOKEN` whatever token it gets, and nothing is
   * rotated or revoked: a verdict that ends the client's session, as a service that lost it would give.
   */
  rejectRefresh: boolean;
}

// `delayMs` is network time: captured when this module loads, so fake timers installed by a test do not stop it
// (the test clock's `advance()` waits for the request it delays).
const realSetTimeout = setTimeout.bind(globalThis);
const realClearTimeout = clearTimeout.bind(globalThis);

/** A queued raw response of `TestAuthServerFaults.failNext`. */
export type QueuedFailure = TestAuthServerFaults['failNext'][number];

/** The faults of a fresh server: none. */
export function noFaults(): TestAuthServerFaults {
  return { delayMs: {}, dropRefreshResponses: 0, failNext: [], hangRefresh: false, rejectRefresh: false };
}

/** Removes and returns the first queued failure that applies to a request for `fields`. */
export function takeFailure(faults: TestAuthServerFaults, fields: readonly string[]): QueuedFailure | undefined {
  const index = faults.failNext.findIndex((failure) => failure.field === undefined || fields.includes(failure.field));
  return index === -1 ? undefined : faults.failNext.splice(index, 1)[0];
}

/** Takes one of the pending `dropRefreshResponses`, if any. */
export function takeDrop(faults: TestAuthServerFaults): boolean {
  if (faults.dropRefreshResponses <= 0) return false;
  faults.dropRefreshResponses -= 1;
  return true;
}

/** The waits of one server's delayed and hung requests, which its `close()` ends all at once. */
export interface Pauses {
  /**
   * Waits `ms` (forever without it); rejects when `signal` aborts (the client gave up) or the server closes.
   * Real time, not the server's clock: a delay is a slow network, not an older token.
   */
  wait(ms: number | undefined, signal?: AbortSignal): Promise<void>;
  /** Ends every wait with `reason`; later waits end at once. */
  close(reason: unknown): void;
  /** Whether `close()` was called. */
  readonly closed: boolean;
}

/** Creates the {@link Pauses} of one server. */
export function createPauses(): Pauses {
  const waiting = new Set<(reason: unknown) => void>();
  let closedWith: { reason: unknown } | undefined;
  return {
    wait(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (closedWith) return reject(closedWith.reason);
        if (signal?.aborted) return reject(signal.reason);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const settle = (reason?: { reason: unknown }) => {
          realClearTimeout(timer);
          waiting.delete(end);
          signal?.removeEventListener('abort', abort);
          if (reason) reject(reason.reason);
          else resolve();
        };
        const end = (reason: unknown) => settle({ reason });
        const abort = () => settle({ reason: signal!.reason });
        waiting.add(end);
        signal?.addEventListener('abort', abort, { once: true });
        if (ms !== undefined) timer = realSetTimeout(() => settle(), ms);
      });
    },
    close(reason) {
      closedWith ??= { reason };
      for (const end of [...waiting]) end(reason);
    },
    get closed() {
      return closedWith !== undefined;
    },
  };
}
