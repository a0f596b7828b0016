import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sink } from 'graphql-ws';
import { AuthRequestError, SessionEndedError, TokenRefusedError, type TokenAuthState } from '../../src/index';
import {
  createResumableSubscription,
  type ResumableSubscription,
  type ResumableSubscriptionHost,
  type Result,
} from '../../src/ws/createResumableSubscription';

const expiredErrors = [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }];
const unauthorized = { code: 4401, reason: 'Unauthorized' };

/** A host that a test drives: graphql-ws's streams are recorded, the session and the connection are plain fields. */
function fakeHost() {
  const streams: Array<{ sink: Sink<Result>; dispose: ReturnType<typeof vi.fn> }> = [];
  const session = { token: 'token-1' as string | null, expiresAt: Date.now() + 900_000 };
  const connection = { token: 'token-1' as string | null | undefined };
  const auth = {
    getAccessToken: vi.fn(async () => session.token),
    refresh: vi.fn(async () => {
      session.token = `${session.token}+`;
    }),
    getState: (): TokenAuthState => ({
      status: 'authenticated',
      user: { id: 'u1', role: 'ADMIN', claims: {} },
      expiresAt: session.expiresAt,
    }),
  };
  const host = {
    client: {
      subscribe: vi.fn((_payload: unknown, sink: Sink<Result>) => {
        const dispose = vi.fn();
        streams.push({ sink, dispose });
        return dispose;
      }),
    },
    auth,
    running: new Set<ResumableSubscription>(),
    authRetryAttempts: 3,
    authRetryDelay: vi.fn((attempt: number) => 100 * attempt),
    // The test's timers, read when a wait starts.
    clock: {
      now: () => Date.now(),
      setTimeout: (callback: () => void, delay: number) => setTimeout(callback, delay),
      clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    connectionToken: vi.fn(() => connection.token),
    // graphql-ws connects again, with the session's token.
    replaceConnection: vi.fn(() => {
      connection.token = session.token;
    }),
  };
  const sink = { next: vi.fn(), error: vi.fn(), complete: vi.fn() };
  const subscription = createResumableSubscription(
    host as unknown as ResumableSubscriptionHost,
    { query: 'subscription { t }' },
    sink,
  );
  const latest = () => streams.at(-1)!.sink;
  return { host, auth, session, connection, streams, sink, subscription, latest };
}

/** A subscription refused while every refresh fails without a verdict, `ms` after the refusal. */
async function refusedOffline(ms: number) {
  const refused = fakeHost();
  refused.auth.refresh.mockRejectedValue(new AuthRequestError('offline', 'refreshToken'));
  refused.latest().error(unauthorized);
  await vi.advanceTimersByTimeAsync(ms);
  return refused;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createResumableSubscription: a stream as graphql-ws delivers it', () => {
  it('passes results on, and completes once when the server completes: it no longer runs', () => {
    const { host, sink, latest, subscription } = fakeHost();
    expect(host.running.has(subscription)).toBe(true);

    latest().next({ data: { t: 1 } });
    latest().complete();
    subscription.end();

    expect(sink.next.mock.calls).toEqual([[{ data: { t: 1 } }]]);
    expect(sink.complete).toHaveBeenCalledOnce();
    expect(host.running.size).toBe(0);
  });

  it('ends with any error that is no refusal, with no refresh', () => {
    const { auth, sink, latest, streams } = fakeHost();
    const errors = [{ message: 'nope', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }];

    latest().error(errors);

    expect(sink.error).toHaveBeenCalledExactlyOnceWith(errors);
    expect(auth.refresh).not.toHaveBeenCalled();
    expect(streams).toHaveLength(1);
  });

  it('end() with an outcome errors the sink once, leaves the stream, and drops what the stream still delivers', async () => {
    const { host, sink, latest, streams, subscription } = fakeHost();
    const failure = new Error('gone');

    subscription.end({ error: failure });
    subscription.end();
    latest().next({ data: { t: 1 } });
    await Promise.resolve();

    expect(sink.error).toHaveBeenCalledExactlyOnceWith(failure);
    expect(sink.complete).not.toHaveBeenCalled();
    expect(sink.next).not.toHaveBeenCalled();
    expect(streams[0]!.dispose).toHaveBeenCalled();
    expect(host.running.size).toBe(0);
  });
});

describe('createResumableSubscription: a refusal resumes it', () => {
  it.each([
    ['a close with 4401', (sink: Sink<Result>) => sink.error(unauthorized)],
    ['a close with 4403', (sink: Sink<Result>) => sink.error({ code: 4403, reason: 'Forbidden' })],
    ['an error with TOKEN_EXPIRED', (sink: Sink<Result>) => sink.error(expiredErrors)],
    ['a result with TOKEN_EXPIRED', (sink: Sink<Result>) => sink.next({ errors: expiredErrors })],
  ])('%s: one refresh, the refusing connection replaced, a new stream', async (_, refuse) => {
    const { auth, host, sink, streams, latest } = fakeHost();

    refuse(latest());
    await vi.advanceTimersByTimeAsync(0);

    expect(auth.refresh).toHaveBeenCalledExactlyOnceWith('socket');
    expect(host.replaceConnection).toHaveBeenCalledExactlyOnceWith('token-1');
    expect(streams).toHaveLength(2);
    expect(streams[0]!.dispose).toHaveBeenCalled();
    latest().next({ data: { t: 1 } });
    expect(sink.next.mock.calls).toEqual([[{ data: { t: 1 } }]]);
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('drops what the refused stream still delivers, and replaces the connection only after the refresh', async () => {
    let refreshed = (): void => {};
    const { auth, host, sink, streams } = fakeHost();
    auth.refresh.mockImplementationOnce(() => new Promise<void>((resolve) => (refreshed = resolve)));
    const refused = streams[0]!.sink;

    refused.next({ errors: expiredErrors });
    refused.next({ data: { t: 1 } });
    refused.complete();
    await vi.advanceTimersByTimeAsync(0);
    expect(host.replaceConnection).not.toHaveBeenCalled();
    expect(streams).toHaveLength(1);
    refreshed();
    await vi.advanceTimersByTimeAsync(0);

    expect(host.replaceConnection).toHaveBeenCalledOnce();
    expect(streams).toHaveLength(2);
    expect(sink.next).not.toHaveBeenCalled();
    expect(sink.complete).not.toHaveBeenCalled();
  });

  it('no refresh when the session renewed the refused token already: only a new stream', async () => {
    const { auth, session, streams, latest } = fakeHost();
    session.token = 'token-2';

    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(0);

    expect(auth.refresh).not.toHaveBeenCalled();
    expect(streams).toHaveLength(2);
  });

  it('the token a refresh just brought, refused too: a TokenRefusedError with the refusal, no second refresh', async () => {
    const { auth, connection, sink, streams, latest } = fakeHost();
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.token).toBe('token-1+');

    await vi.advanceTimersByTimeAsync(4_999);
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(0);

    expect(auth.refresh).toHaveBeenCalledOnce();
    expect(streams).toHaveLength(2);
    const [error] = sink.error.mock.calls[0]!;
    expect(TokenRefusedError.is(error) && error.cause).toBe(unauthorized);
  });

  it.each([
    ['5 s later', 5_000, () => {}],
    ['after an event between', 0, (sink: Sink<Result>) => sink.next({ data: { t: 1 } })],
  ])('the token a refresh brought, refused %s: renewed again', async (_, later, between) => {
    const { auth, connection, sink, latest } = fakeHost();
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.token).toBe('token-1+');

    await vi.advanceTimersByTimeAsync(later);
    between(latest());
    latest().error(unauthorized);
    // The second resume in a row, unless an event came between, waits authRetryDelay(1).
    await vi.advanceTimersByTimeAsync(100);

    expect(auth.refresh).toHaveBeenCalledTimes(2);
    expect(sink.error).not.toHaveBeenCalled();
  });
});

describe('createResumableSubscription: a refresh that fails', () => {
  it('without a verdict: tried again after authRetryDelay(1), authRetryDelay(2), then ends with the last failure', async () => {
    const { auth, host, sink, streams, latest } = fakeHost();
    const failures = [1, 2, 3].map((n) => new AuthRequestError(`offline ${n}`, 'refreshToken'));
    const since = Date.now();
    const refreshedAt: number[] = [];
    auth.refresh.mockImplementation(async () => {
      refreshedAt.push(Date.now() - since);
      throw failures[refreshedAt.length - 1];
    });

    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(refreshedAt).toEqual([0, 100, 300]);
    expect(host.authRetryDelay.mock.calls).toEqual([[1], [2]]);
    expect(sink.error).toHaveBeenCalledExactlyOnceWith(failures[2]);
    expect(streams).toHaveLength(1);
    expect(host.running.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with the end of the session: ends with its SessionEndedError, not tried again', async () => {
    const { auth, sink, latest } = fakeHost();
    const ended = new SessionEndedError('rejected');
    auth.refresh.mockRejectedValueOnce(ended);

    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(auth.refresh).toHaveBeenCalledOnce();
    expect(sink.error).toHaveBeenCalledExactlyOnceWith(ended);
  });

  it('the attempts count afresh after an event', async () => {
    const { auth, sink, latest } = fakeHost();
    const offline = () => auth.refresh.mockRejectedValueOnce(new AuthRequestError('offline', 'refreshToken'));
    offline();
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(100);
    latest().next({ data: { t: 1 } });

    offline();
    offline();
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(300);

    // The second refusal gets its three attempts too: the third succeeds.
    expect(auth.refresh).toHaveBeenCalledTimes(5);
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('end() during the wait: no further attempt, no timer left, completes once', async () => {
    const { auth, sink, subscription } = await refusedOffline(0);

    subscription.end();
    await vi.advanceTimersByTimeAsync(10_000);

    expect(auth.refresh).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
    expect(sink.complete).toHaveBeenCalledOnce();
    expect(sink.error).not.toHaveBeenCalled();
  });
});

describe('createResumableSubscription: again(), as another user signs in', () => {
  it('leaves the stream and subscribes again, without ending', async () => {
    const { host, sink, streams, subscription } = fakeHost();

    subscription.again();
    await Promise.resolve();

    expect(streams).toHaveLength(2);
    expect(streams[0]!.dispose).toHaveBeenCalled();
    expect(host.running.has(subscription)).toBe(true);
    expect(sink.complete).not.toHaveBeenCalled();
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('a resume under way stops: its refresh settling later opens no stream', async () => {
    let refreshed = (): void => {};
    const { auth, host, streams, latest, subscription } = fakeHost();
    auth.refresh.mockImplementationOnce(() => new Promise<void>((resolve) => (refreshed = resolve)));
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(0);

    subscription.again();
    refreshed();
    await vi.advanceTimersByTimeAsync(0);

    expect(streams).toHaveLength(2);
    expect(host.replaceConnection).not.toHaveBeenCalled();
  });

  it('counts the attempts afresh', async () => {
    const { auth, sink, latest, subscription } = await refusedOffline(100);
    expect(auth.refresh).toHaveBeenCalledTimes(2);

    subscription.again();
    latest().error(unauthorized);
    await vi.advanceTimersByTimeAsync(299);

    expect(auth.refresh).toHaveBeenCalledTimes(4);
    expect(sink.error).not.toHaveBeenCalled();
  });
});
