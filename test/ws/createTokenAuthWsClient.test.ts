import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError, SessionEndedError, type TokenAuth, type TokenAuthState } from '../../src/index';
import { createTokenAuthWsClient, type TokenAuthWsClientOptions } from '../../src/ws/index';

/** A WebSocket that a test drives: it opens on the next tick, acknowledges `connection_init`, records the rest. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  readonly sent: Array<{ type: string; id?: string; payload?: unknown }> = [];
  /** What was sent once the socket was closing or closed: a browser logs a console error for each. */
  readonly sentClosed: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;

  constructor() {
    FakeSocket.all.push(this);
    setTimeout(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
    });
  }

  send(data: string) {
    if (this.readyState !== FakeSocket.OPEN) this.sentClosed.push(data);
    const message = JSON.parse(data) as FakeSocket['sent'][number];
    this.sent.push(message);
    if (message.type === 'connection_init') setTimeout(() => this.receive({ type: 'connection_ack' }));
  }

  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  /** Both sides' close: the event follows on the next tick, as a server's echo would. */
  close(code: number, reason: string) {
    if (this.readyState >= FakeSocket.CLOSING) return;
    this.readyState = FakeSocket.CLOSING;
    setTimeout(() => {
      this.readyState = FakeSocket.CLOSED;
      this.onclose?.({ code, reason });
    });
  }

  get inits() {
    return this.sent.filter((message) => message.type === 'connection_init');
  }

  get subscribeIds() {
    return this.sent.filter((message) => message.type === 'subscribe').map((message) => message.id!);
  }
}

/** The part of a session the client reads, driven by the test. */
function fakeAuth(token: string | null = 'token-1') {
  const listeners = new Set<() => void>();
  let state: TokenAuthState = token
    ? { status: 'authenticated', user: { id: 'u1', role: 'ADMIN', claims: {} } }
    : { status: 'unauthenticated', user: null };
  const auth = {
    token,
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getAccessToken: vi.fn(async () => auth.token),
    refresh: vi.fn(async () => {
      auth.token = `${auth.token}+`;
      publish({ ...state });
    }),
    listeners,
  };
  function publish(next: TokenAuthState) {
    state = next;
    for (const listener of listeners) listener();
  }
  return { auth, asTokenAuth: auth as unknown as TokenAuth, publish };
}

function start(auth: TokenAuth, options: Partial<TokenAuthWsClientOptions> = {}) {
  const client = createTokenAuthWsClient(auth, {
    url: 'ws://test/graphql',
    webSocketImpl: FakeSocket,
    retryAttempts: 0,
    ...options,
  });
  const sink = { next: vi.fn(), error: vi.fn(), complete: vi.fn() };
  const stop = client.subscribe({ query: 'subscription { ticker { n } }' }, sink);
  return { client, sink, stop };
}

const latest = () => FakeSocket.all.at(-1)!;

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createTokenAuthWsClient (fake socket, fake timers)', () => {
  // The 30-minute soak (seeds 1 and 2): after a long freeze, a page's socket was closed to authenticate again while
  // the server's pings were still arriving, and graphql-ws answered one with a pong on the closing socket: the
  // console error "WebSocket is already in CLOSING or CLOSED state.".
  it('sends nothing on a socket it closed to authenticate again, not even the pong to a ping that arrives then', async () => {
    const { auth, publish } = fakeAuth();
    start(auth as unknown as TokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    const first = latest();
    expect(first.subscribeIds).toHaveLength(1);
    auth.token = 'token-2';
    publish({ ...auth.getState() });
    // The close, not its echo: the socket is closing, and a ping the server sent meanwhile still arrives.
    for (let turn = 0; turn < 10 && first.readyState === FakeSocket.OPEN; turn++) await Promise.resolve();
    expect(first.readyState).toBe(FakeSocket.CLOSING);
    first.receive({ type: 'ping' });
    expect(first.sentClosed).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    expect(latest().inits).toEqual([{ type: 'connection_init', payload: { authorization: 'Bearer token-2' } }]);
  });

  it('closes a connection it has no token for instead of throwing from connectionParams, and resumes once there is one', async () => {
    const { auth, asTokenAuth } = fakeAuth();
    auth.getAccessToken.mockRejectedValueOnce(new AuthRequestError('offline', 'refreshToken'));
    const { sink } = start(asTokenAuth);

    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all[0]!.inits).toEqual([]);
    expect(FakeSocket.all[0]!.readyState).toBeGreaterThanOrEqual(FakeSocket.CLOSING);

    await vi.advanceTimersByTimeAsync(10);
    // The close counts as a refusal of "no token": the session has one now, so no refresh is needed.
    expect(auth.refresh).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(2);
    expect(latest().inits).toEqual([{ type: 'connection_init', payload: { authorization: 'Bearer token-1' } }]);
    expect(latest().subscribeIds).toHaveLength(1);
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('forces a refresh when the session still has no token to give', async () => {
    const { auth, asTokenAuth } = fakeAuth();
    auth.getAccessToken.mockRejectedValueOnce(new AuthRequestError('offline', 'refreshToken'));
    auth.getAccessToken.mockRejectedValueOnce(new AuthRequestError('offline', 'refreshToken'));
    const { sink } = start(asTokenAuth);

    await vi.advanceTimersByTimeAsync(10);

    expect(auth.refresh).toHaveBeenCalledTimes(1);
    expect(latest().inits).toEqual([{ type: 'connection_init', payload: { authorization: 'Bearer token-1+' } }]);
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('signed out because the session ended while loading: no authorization, no close', async () => {
    const { auth, asTokenAuth } = fakeAuth(null);
    auth.getAccessToken.mockRejectedValueOnce(new SessionEndedError('rejected'));
    start(asTokenAuth);

    await vi.advanceTimersByTimeAsync(10);

    expect(FakeSocket.all).toHaveLength(1);
    expect(latest().inits).toEqual([{ type: 'connection_init' }]);
    expect(latest().subscribeIds).toHaveLength(1);
  });

  it('waits the default full-jitter backoff between resumes, and leaves no timer behind when unsubscribed meanwhile', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { auth, asTokenAuth } = fakeAuth();
    auth.refresh.mockRejectedValue(new AuthRequestError('offline', 'refreshToken'));
    const { sink, stop } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    const [id] = latest().subscribeIds;

    latest().receive({ type: 'error', id, payload: [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    // The second attempt after half of 1 s, the third after half of 2 s.
    await vi.advanceTimersByTimeAsync(499);
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(auth.refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(auth.refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(auth.refresh).toHaveBeenCalledTimes(3);

    stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(auth.refresh).toHaveBeenCalledTimes(3);
    expect(sink.error).not.toHaveBeenCalled();
    expect(sink.complete).toHaveBeenCalledTimes(1);
    // No reconnection while the refresh failed.
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('gives up after authRetryAttempts with the last failure', async () => {
    const { auth, asTokenAuth } = fakeAuth();
    const failure = new AuthRequestError('offline', 'refreshToken');
    auth.refresh.mockRejectedValue(failure);
    const { sink } = start(asTokenAuth, { authRetryAttempts: 2, authRetryDelay: 100 });
    await vi.advanceTimersByTimeAsync(10);

    latest().close(4401, 'Unauthorized');
    await vi.advanceTimersByTimeAsync(100);

    expect(auth.refresh).toHaveBeenCalledTimes(2);
    expect(sink.error).toHaveBeenCalledExactlyOnceWith(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a result with TOKEN_EXPIRED never reaches the app; the one after the resume does', async () => {
    const { auth, asTokenAuth } = fakeAuth();
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    const [first] = latest().subscribeIds;
    latest().receive({ type: 'next', id: first, payload: { data: { ticker: { n: 1 } } } });

    latest().receive({
      type: 'next',
      id: first,
      payload: { errors: [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }] },
    });
    latest().receive({ type: 'complete', id: first });
    await vi.advanceTimersByTimeAsync(10);

    expect(auth.refresh).toHaveBeenCalledTimes(1);
    // The socket that refused the token was replaced before the replay.
    expect(FakeSocket.all).toHaveLength(2);
    const [second] = latest().subscribeIds;
    latest().receive({ type: 'next', id: second, payload: { data: { ticker: { n: 1 } } } });
    expect(sink.next.mock.calls).toEqual([[{ data: { ticker: { n: 1 } } }], [{ data: { ticker: { n: 1 } } }]]);
    expect(sink.complete).not.toHaveBeenCalled();
  });

  it('a login as someone else closes even a connection not yet acknowledged, and subscribes again as that user on the next one', async () => {
    const { auth, asTokenAuth, publish } = fakeAuth();
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(0);
    // connection_init sent with the first user's token; no ack yet.
    expect(latest().inits).toHaveLength(1);

    auth.token = 'other-token';
    publish({ status: 'authenticated', user: { id: 'u2', role: 'ADMIN', claims: {} } });

    expect(FakeSocket.all[0]!.readyState).toBeGreaterThanOrEqual(FakeSocket.CLOSING);
    await vi.advanceTimersByTimeAsync(10);
    expect(FakeSocket.all).toHaveLength(2);
    expect(latest().inits).toEqual([{ type: 'connection_init', payload: { authorization: 'Bearer other-token' } }]);
    const [id] = latest().subscribeIds;
    latest().receive({ type: 'next', id, payload: { data: { ticker: { n: 1 } } } });
    expect(sink.next.mock.calls).toEqual([[{ data: { ticker: { n: 1 } } }]]);
    expect(sink.error).not.toHaveBeenCalled();
    expect(sink.complete).not.toHaveBeenCalled();
  });

  it("a login as someone else: an event of the first user's stream that arrives after it never reaches the app", async () => {
    const { auth, asTokenAuth, publish } = fakeAuth();
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    const first = latest();
    const [id] = first.subscribeIds;
    first.receive({ type: 'next', id, payload: { data: { ticker: { n: 1, user: 'u1' } } } });

    auth.token = 'other-token';
    publish({ status: 'authenticated', user: { id: 'u2', role: 'ADMIN', claims: {} } });
    // Already on its way when the socket was closed.
    first.receive({ type: 'next', id, payload: { data: { ticker: { n: 2, user: 'u1' } } } });
    await vi.advanceTimersByTimeAsync(10);
    const [again] = latest().subscribeIds;
    latest().receive({ type: 'next', id: again, payload: { data: { ticker: { n: 1, user: 'u2' } } } });

    expect(sink.next.mock.calls.map(([result]) => result.data.ticker.user)).toEqual(['u1', 'u2']);
    expect(latest()).not.toBe(first);
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('a login as someone else while a resume waits for its backoff: one subscription as the new user, and no timer left', async () => {
    const { auth, asTokenAuth, publish } = fakeAuth();
    auth.refresh.mockRejectedValueOnce(new AuthRequestError('offline', 'refreshToken'));
    const { sink } = start(asTokenAuth, { authRetryDelay: 1_000 });
    await vi.advanceTimersByTimeAsync(10);
    latest().receive({
      type: 'error',
      id: latest().subscribeIds[0],
      payload: [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }],
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.refresh).toHaveBeenCalledTimes(1);

    auth.token = 'other-token';
    publish({ status: 'authenticated', user: { id: 'u2', role: 'ADMIN', claims: {} } });
    await vi.advanceTimersByTimeAsync(5_000);

    expect(auth.refresh).toHaveBeenCalledTimes(1);
    expect(latest().inits).toEqual([{ type: 'connection_init', payload: { authorization: 'Bearer other-token' } }]);
    expect(latest().subscribeIds).toHaveLength(1);
    expect(sink.error).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a login as someone else while a resume waits for its refresh: that refresh settling later subscribes nothing more', async () => {
    const { auth, asTokenAuth, publish } = fakeAuth();
    let refreshed = (): void => {};
    auth.refresh.mockImplementationOnce(() => new Promise<void>((resolve) => (refreshed = resolve)));
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    latest().receive({
      type: 'error',
      id: latest().subscribeIds[0],
      payload: [{ message: 'expired', extensions: { code: 'TOKEN_EXPIRED' } }],
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.refresh).toHaveBeenCalledTimes(1);

    auth.token = 'other-token';
    publish({ status: 'authenticated', user: { id: 'u2', role: 'ADMIN', claims: {} } });
    await vi.advanceTimersByTimeAsync(10);
    refreshed();
    await vi.advanceTimersByTimeAsync(10);

    expect(FakeSocket.all).toHaveLength(2);
    expect(latest().inits).toEqual([{ type: 'connection_init', payload: { authorization: 'Bearer other-token' } }]);
    expect(latest().subscribeIds).toHaveLength(1);
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('a logout ends the subscriptions synchronously, and one started later runs without authorization', async () => {
    const { auth, asTokenAuth, publish } = fakeAuth();
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(0);

    auth.token = null;
    publish({ status: 'unauthenticated', user: null });

    expect(sink.error).toHaveBeenCalledOnce();
    expect(SessionEndedError.is(sink.error.mock.calls[0]![0]) && sink.error.mock.calls[0]![0].reason).toBe('logout');
    expect(FakeSocket.all[0]!.readyState).toBeGreaterThanOrEqual(FakeSocket.CLOSING);
    await vi.advanceTimersByTimeAsync(10);
    const late = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    expect(latest()).not.toBe(FakeSocket.all[0]);
    expect(latest().inits).toEqual([{ type: 'connection_init' }]);
    expect(late.sink.error).not.toHaveBeenCalled();
  });

  it('a subscription started while the session loads carries on as the user it loads', async () => {
    const { auth, asTokenAuth, publish } = fakeAuth();
    publish({ status: 'loading', user: null });
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);

    publish({ status: 'authenticated', user: { id: 'u1', role: 'ADMIN', claims: {} } });
    await vi.advanceTimersByTimeAsync(10);

    expect(sink.error).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(1);
    expect(auth.refresh).not.toHaveBeenCalled();
  });

  it('passes any other error through untouched, with no refresh', async () => {
    const { auth, asTokenAuth } = fakeAuth();
    const { sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    const errors = [{ message: 'Cannot query field "nope"', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }];

    latest().receive({ type: 'error', id: latest().subscribeIds[0], payload: errors });
    await vi.advanceTimersByTimeAsync(10);

    expect(sink.error).toHaveBeenCalledExactlyOnceWith(errors);
    expect(auth.refresh).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('iterate() yields what arrives and returns when the server completes', async () => {
    const { asTokenAuth } = fakeAuth();
    const client = createTokenAuthWsClient(asTokenAuth, { url: 'ws://test/graphql', webSocketImpl: FakeSocket });
    const seen: unknown[] = [];
    const done = (async () => {
      for await (const result of client.iterate({ query: 'subscription { ticker { n } }' })) seen.push(result.data);
    })();
    await vi.advanceTimersByTimeAsync(10);
    const [id] = latest().subscribeIds;

    latest().receive({ type: 'next', id, payload: { data: { n: 1 } } });
    latest().receive({ type: 'next', id, payload: { data: { n: 2 } } });
    latest().receive({ type: 'complete', id });
    await done;

    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('iterate() drops what the previous user left unread when the session ends', async () => {
    const { asTokenAuth, publish } = fakeAuth();
    const client = createTokenAuthWsClient(asTokenAuth, { url: 'ws://test/graphql', webSocketImpl: FakeSocket });
    const iterator = client.iterate({ query: 'subscription { ticker { n } }' });
    const first = iterator.next();
    await vi.advanceTimersByTimeAsync(10);
    const [id] = latest().subscribeIds;
    latest().receive({ type: 'next', id, payload: { data: { n: 1 } } });
    latest().receive({ type: 'next', id, payload: { data: { n: 2 } } });
    expect(await first).toEqual({ done: false, value: { data: { n: 1 } } });

    publish({ status: 'unauthenticated', user: null });

    await expect(iterator.next()).rejects.toSatisfy(
      (error) => SessionEndedError.is(error) && error.reason === 'logout',
    );
  });

  it('dispose() stops following the session and completes what runs', async () => {
    const { auth, asTokenAuth } = fakeAuth();
    const { client, sink } = start(asTokenAuth);
    await vi.advanceTimersByTimeAsync(10);
    expect(auth.listeners.size).toBe(1);

    await client.dispose();

    expect(auth.listeners.size).toBe(0);
    expect(sink.complete).toHaveBeenCalledTimes(1);
  });
});
