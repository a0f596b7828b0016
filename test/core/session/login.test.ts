import { describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  SessionEndedError,
  shareTokenStore,
  createMemoryTokenStore,
  createTokenStore,
  type TokenPair,
} from '../../../src';
import { createFetchStub, rejection, type StubCall } from '../../helpers/fetchStub';
import { makePair } from '../../helpers/jwt';
import { loggedIn, setup, TIME, useTestClock } from '../../helpers/session';

// login(): the pair it stores and the user it publishes, the answers it rejects, and a login over a session whose
// refresh is still out.

const { T0, MINUTE } = TIME;

useTestClock();

describe('login', () => {
  it('stores the pair, publishes the user with the role from the token, and schedules a refresh', async () => {
    const { session, stub, store, states } = setup();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().status).toBe('unauthenticated');
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    const call = stub.last('loginWithEmailPassword');
    expect(call.variables).toEqual({ email: 'a@b.test', password: 'pw' });
    const pair = makePair('login', { role: 'Cashier' });
    call.respond({
      data: { loginWithEmailPassword: { ...pair, user: { id: 'u_9', email: 'c@d.test', role: 'Cashier' } } },
    });
    const { user } = await login;
    expect(user).toMatchObject({ id: 'u_9', email: 'c@d.test', role: 'Cashier' });
    expect(await store.get()).toEqual({ ...pair, receivedAt: T0 });
    const state = session.getState();
    expect(state).toMatchObject({
      status: 'authenticated',
      expiresAt: T0 + 15 * MINUTE,
      refreshAt: T0 + 15 * MINUTE - 150_000,
    });
    // An empty synchronous store is signed out from the start, with no 'loading' to leave.
    expect(states).toEqual(['authenticated']);
  });

  it('rejects bad credentials with the server code and stores nothing', async () => {
    const { session, stub, store } = setup();
    const login = session.login('a@b.test', 'wrong');
    await vi.advanceTimersByTimeAsync(0);
    stub.last('loginWithEmailPassword').respond(rejection('INVALID_CREDENTIALS', 'Invalid e-mail or password'));
    const error = await login.catch((e: unknown) => e);
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_CREDENTIALS', operation: 'loginWithEmailPassword' });
    expect(await store.get()).toBeNull();
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null, error });
  });

  it('clears the error of a failed login with the next successful one', async () => {
    const { session, stub } = setup();
    const failed = session.login('a@b.test', 'wrong').catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    stub.last('loginWithEmailPassword').respond(rejection('INVALID_CREDENTIALS'));
    await failed;
    expect(session.getState().error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    stub.auto = true;
    await session.login('a@b.test', 'pw');
    expect(session.getState()).toMatchObject({ status: 'authenticated' });
    expect(session.getState().error).toBeUndefined();
  });

  it.each([
    [
      'a body that is not JSON',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.respondRaw('<html>oops</html>', 200),
      /not JSON/,
    ],
    [
      'HTTP 502',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.respondRaw('Bad gateway', 502),
      /not JSON/,
    ],
    [
      'a missing refresh token',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) =>
        call.respond({
          data: { loginWithEmailPassword: { accessToken: makePair('x').accessToken, user: { id: '1' } } },
        }),
      /without a valid refreshToken/,
    ],
    [
      'an access token that is not a JWT',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) =>
        call.respond({
          data: { loginWithEmailPassword: { accessToken: 'nope', refreshToken: 'r', user: { id: '1' } } },
        }),
      /not a valid JWT/,
    ],
    [
      'no data',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.respond({ data: null }),
      /without data.loginWithEmailPassword/,
    ],
    [
      'a network failure',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.fail(),
      /failed on the network/,
    ],
  ])('rejects %s with a clear AuthRequestError and stores nothing', async (_name, answer, message) => {
    const { session, stub, store } = setup();
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    answer(stub.last('loginWithEmailPassword'));
    const error = await login.catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(await store.get()).toBeNull();
    expect(session.getState().status).toBe('unauthenticated');
  });
});

/** The refresh tokens that logout requests revoked, in the order they were sent. */
const revokedTokens = (calls: StubCall[]) =>
  calls.filter((call) => call.field === 'logout').map((call) => call.variables.refreshToken);

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
    expect(revokedTokens(stub.calls)).toEqual([]);

    stub.last('refreshToken').fail();
    const error = await refresh;
    await vi.advanceTimersByTimeAsync(0);

    expect(SessionEndedError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'replaced' });
    expect(revokedTokens(stub.calls)).toEqual(['refresh-p1']);
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
      expect(revokedTokens(stub.calls)).toEqual([]);

      held.release();
      await login;
      const error = await refresh;
      await vi.advanceTimersByTimeAsync(0);

      expect(SessionEndedError.is(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'replaced' });
      // The spent s is not revoked again; p1, which nobody holds any more, is.
      expect(revokedTokens(stub.calls)).toEqual(['refresh-p1']);
      expect(await held.stored()).toBe('refresh-p2');
      session.dispose();
    },
  );
});
