import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  createTokenStore,
  type Lock,
  shareTokenStore,
  type TokenAuth,
} from '../../../src';
import { makePair } from '../../helpers/jwt';
import { execute } from '../../helpers/links';
import {
  AUTH_URI,
  loggedIn,
  loggedInLinks,
  refreshCount,
  setup,
  tick,
  TIME,
  useTestClock,
} from '../../helpers/session';

// dispose(): the session stops its timer and listeners, settles what waits on it at once, and lets a refresh
// already sent end as the store requires.

const { T0, MINUTE } = TIME;

useTestClock();

/** Disposes `auth` when the test ends. */
const keep = (auth: TokenAuth) => (onTestFinished(() => auth.dispose()), auth);

/** A pair whose access token died an hour before the fake clock's start: a session renews it before use. */
const deadPair = (name: string) => makePair(name, { now: T0 - 60 * MINUTE });

describe('dispose', () => {
  it('stops the timer and listeners', async () => {
    const { session, stub, states } = await loggedIn();
    expect(vi.getTimerCount()).toBe(1);
    session.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(stub.of('refreshToken')).toHaveLength(0);
    await session.logout();
    expect(states).toEqual([]);
  });

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

/** A storage of the app's own (a file, Keychain): what it holds outlives the process, for the next start. */
const persistentStore = () => {
  const memory = createMemoryTokenStore();
  return { memory, store: createTokenStore({ get: memory.get, set: memory.set, clear: memory.clear }) };
};

describe('dispose() aborts a refresh in flight', () => {
  it('on the memory store, aborts the refresh already sent too, and clears the spent pair: nothing reads it after this session', async () => {
    const store = createMemoryTokenStore();
    const { auth, stub, server, link, token } = await loggedInLinks({ store });
    server.expired.add(token);
    const runs = Array.from({ length: 3 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshCount(stub)).toBe(1);
    auth.dispose();
    await tick();
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'dispose' });
    // The request is aborted: it holds no process up, and its answer goes to no one.
    expect(stub.last('refreshToken').settled).toBe(true);
    expect(await store.get()).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    expect(() => keep(createTokenAuth({ uri: AUTH_URI, store }))).not.toThrow();
  });

  it('settles the operations waiting on it at once, and lets the refresh already sent store its pair before a persistent store is let go', async () => {
    const { memory, store } = persistentStore();
    const { auth, stub, server, link, token } = await loggedInLinks({ store });
    server.expired.add(token);
    const runs = Array.from({ length: 3 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshCount(stub)).toBe(1);
    auth.dispose();
    await tick();
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'dispose' });
    // The server may have rotated already: the request goes on, and its pair replaces the spent one in the store.
    expect(stub.last('refreshToken').settled).toBe(false);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await tick();
    expect((await memory.get())?.refreshToken).toBe(next.refreshToken);
    expect(server.attempts.map((a) => a.authorization)).toEqual(Array(3).fill(`Bearer ${token}`));
    expect(refreshCount(stub)).toBe(1);
    // The store is let go once that pair is stored: another session may take it.
    expect(() => keep(createTokenAuth({ uri: AUTH_URI, store }))).not.toThrow();
  });

  it('lets a refresh already sent end at refreshTimeout (and its 1 s of grace) after dispose(), keeping the pair a persistent store holds', async () => {
    const { memory, store } = persistentStore();
    const { auth, stub, server, link, token } = await loggedInLinks({ store, refreshTimeout: 2_000 });
    const before = await memory.get();
    server.expired.add(token);
    execute(link);
    await tick();
    auth.dispose();
    await tick(2_999);
    expect(stub.last('refreshToken').settled).toBe(false);
    await tick(1);
    expect(stub.last('refreshToken').settled).toBe(true);
    expect(await memory.get()).toEqual(before);
    expect(vi.getTimerCount()).toBe(0);
  });
});
