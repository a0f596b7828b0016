import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  type Lock,
  SessionEndedError,
  shareTokenStore,
  type TokenPair,
  type TokenStore,
  createTokenStore,
} from '../../src';
import { createTokenSession } from '../../src/core/session/TokenSession';
import { createFetchStub, rejection, type StubCall } from '../helpers/fetchStub';
import { makePair } from '../helpers/jwt';
import { loggedIn, setup, TIME } from '../helpers/session';

const { T0, MINUTE } = TIME;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The refresh tokens that logout requests revoked, in the order they were sent. */
const revoked = (calls: StubCall[]) =>
  calls.filter((call) => call.field === 'logout').map((call) => call.variables.refreshToken);

/** A pair whose access token died an hour before the fake clock's start: a session renews it before use. */
const deadPair = (name: string) => makePair(name, { now: T0 - 60 * MINUTE });

/** A memory store whose writes can be held back while {@link hold} is on, to interleave a login with a write. */
function storeWithHeldWrites(initial: TokenPair) {
  const inner = createMemoryTokenStore(initial);
  const held: Array<() => void> = [];
  let holding = false;
  const store = createTokenStore({
    get: () => inner.get(),
    set: (pair) =>
      holding
        ? new Promise<void>((resolve) =>
            held.push(() => {
              void inner.set(pair);
              resolve();
            }),
          )
        : inner.set(pair),
    clear: () => inner.clear(),
    subscribe: inner.subscribe!,
  });
  return {
    store,
    /** The refresh token the store holds now. */
    stored: async () => (await inner.get())?.refreshToken ?? null,
    hold: () => void (holding = true),
    /** How many writes wait. */
    get held() {
      return held.length;
    },
    /** Stops holding and lets the held writes land. */
    release() {
      holding = false;
      for (const write of held.splice(0)) write();
    },
  };
}

describe('logout', () => {
  it('sends one logout request, for the stored pair, when logout() is called twice while the store is still being read', async () => {
    const stored = makePair('stored');
    let finishRead!: (pair: TokenPair) => void;
    const store = createTokenStore({
      get: () => new Promise<TokenPair | null>((resolve) => (finishRead = resolve)),
      set: () => {},
      clear: () => {},
    });
    const { session, stub, onSessionEnd } = setup({ store, auto: true });
    expect(session.getState().status).toBe('loading');

    const first = session.logout();
    const second = session.logout();
    finishRead(stored);
    await Promise.all([first, second]);
    await vi.advanceTimersByTimeAsync(0);

    expect(revoked(stub.calls)).toEqual(['refresh-stored']);
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null });
    // Nothing had been restored, so no session was live to end.
    expect(onSessionEnd).not.toHaveBeenCalled();
  });
});

describe('login while the stored pair is still being read', () => {
  it('revokes the stored pair the login replaces when the store answers after the login', async () => {
    const stored = makePair('stored');
    let answer!: (pair: TokenPair) => void;
    const store = createTokenStore({
      get: () => new Promise<TokenPair>((resolve) => (answer = resolve)),
      set: vi.fn(),
      clear: vi.fn(),
    });
    const { session, stub } = setup({ store, auto: true });
    await session.login('a@b.test', 'pw');
    expect(revoked(stub.calls)).toEqual([]);
    answer(stored);
    await vi.advanceTimersByTimeAsync(0);
    expect(revoked(stub.calls)).toEqual([stored.refreshToken]);
    // The login's session is the one in use, not the one read late.
    expect(session.getState()).toMatchObject({ status: 'authenticated', user: { claims: { jti: 'p1' } } });
  });
});

/** Answers the last login with the stub's next pair, as another user than the one signed in (u_1). */
function answerAsAnotherUser(stub: ReturnType<typeof createFetchStub>) {
  const user = { id: 'u_2', email: 'c@d.test', role: 'ADMIN' };
  stub.last('loginWithEmailPassword').respond({ data: { loginWithEmailPassword: { ...stub.nextPair(), user } } });
}

describe('login over a session whose refresh is out', () => {
  it('revokes the replaced pair when a login lands while a refresh is out and that refresh then fails on the network', async () => {
    const { session, stub, store } = await loggedIn({ auto: false });
    // loggedIn's login was answered with p1.
    const refresh = session.refresh().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken').map((call) => call.variables.token)).toEqual(['refresh-p1']);

    const login = session.login('c@d.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    answerAsAnotherUser(stub);
    await login;
    // The refresh may still bring a newer pair of the replaced session: the revocation waits for it.
    expect(revoked(stub.calls)).toEqual([]);

    stub.last('refreshToken').fail();
    const error = await refresh;
    await vi.advanceTimersByTimeAsync(0);

    expect(SessionEndedError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'replaced' });
    expect(revoked(stub.calls)).toEqual(['refresh-p1']);
    expect((await store.get())?.refreshToken).toBe('refresh-p2');
    expect(session.getState().status).toBe('authenticated');
  });

  it.each([
    ['its own store', false],
    ['a shared store', true],
  ] as const)(
    'revokes the rotated pair when a login lands while that pair is being written to %s',
    async (_kind, share) => {
      const held = storeWithHeldWrites(makePair('s'));
      const { session, stub } = setup({ store: share ? shareTokenStore(held.store) : held.store });
      await vi.advanceTimersByTimeAsync(0);

      const refresh = session.refresh().catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(0);
      held.hold();
      stub.answer(stub.last('refreshToken')); // rotates to p1, whose write is held
      await vi.advanceTimersByTimeAsync(0);
      expect(held.held).toBe(1);

      const login = session.login('c@d.test', 'pw');
      await vi.advanceTimersByTimeAsync(0);
      answerAsAnotherUser(stub); // p2
      await vi.advanceTimersByTimeAsync(0);
      // p1 is not revoked before its rotation is settled.
      expect(revoked(stub.calls)).toEqual([]);

      held.release();
      await login;
      const error = await refresh;
      await vi.advanceTimersByTimeAsync(0);

      expect(SessionEndedError.is(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'replaced' });
      // The spent s is not revoked again; p1, which nobody holds any more, is.
      expect(revoked(stub.calls)).toEqual(['refresh-p1']);
      expect(await held.stored()).toBe('refresh-p2');
      session.dispose();
    },
  );
});

describe('sessions that share a store', () => {
  it("ends both sessions as rejected when one's refresh is refused, and fails the other's waiting operation as rejected", async () => {
    const stubA = createFetchStub();
    const stubB = createFetchStub();
    const memory = createMemoryTokenStore(deadPair('dead'));
    const store = shareTokenStore(memory);
    const onSessionEndA = vi.fn();
    const onSessionEndB = vi.fn();
    const uri = 'http://auth.test/graphql';
    const a = createTokenSession({ uri, fetch: stubA.fetch, store, onSessionEnd: onSessionEndA });
    const b = createTokenSession({ uri, fetch: stubB.fetch, store, onSessionEnd: onSessionEndB });
    // An operation of B: the access token is dead, so it waits for the refresh.
    const waitingB = Promise.resolve(b.getAccessToken()).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    // A took the lock first; B waits for it.
    expect(stubA.of('refreshToken').map((call) => call.variables.token)).toEqual(['refresh-dead']);
    expect(stubB.calls).toHaveLength(0);

    stubA.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    const error = await waitingB;
    await vi.advanceTimersByTimeAsync(0);

    expect(SessionEndedError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'rejected' });
    expect(onSessionEndA).toHaveBeenCalledTimes(1);
    expect(onSessionEndA).toHaveBeenCalledWith({
      reason: 'rejected',
      elsewhere: false,
      rejection: 'revoked',
      message: 'INVALID_REFRESH_TOKEN',
      error: expect.any(AuthRejectedError),
    });
    expect(onSessionEndB).toHaveBeenCalledTimes(1);
    expect(onSessionEndB.mock.calls[0]![0]).toMatchObject({ reason: 'rejected' });
    expect(a.getState()).toMatchObject({ status: 'unauthenticated', error: { reason: 'rejected' } });
    expect(b.getState()).toMatchObject({ status: 'unauthenticated', error: { reason: 'rejected' } });
    // B never submitted the refused token, and the store no longer holds it.
    expect(stubB.calls).toHaveLength(0);
    expect(await memory.get()).toBeNull();
    a.dispose();
    b.dispose();
  });
});

describe('dispose', () => {
  it('leaves no timer armed, and fails the waiting operation at once, when disposed while a refresh waits for a lock that is never granted', async () => {
    const neverGranted: Lock = () => new Promise<never>(() => {});
    const store = shareTokenStore(createMemoryTokenStore(deadPair('dead')), { lock: neverGranted });
    const { session, stub, onError } = setup({ store });
    const waiting = session.getAccessToken().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    // The restore's refresh waits for the lock, bounded by the lock timeout; the operation, by its own bound.
    expect(vi.getTimerCount()).toBe(2);

    session.dispose();

    expect(vi.getTimerCount()).toBe(0);
    const error = await waiting;
    expect(AuthRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'dispose' });
    expect(stub.calls).toHaveLength(0);
    expect(onError).not.toHaveBeenCalled();
  });
});
