import { ApolloLink } from '@apollo/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError } from '../../src';
import { createServiceAuth, type ServiceAuth, type ServiceCredentials } from '../../src/service';
import { createFetchStub } from '../helpers/fetchStub';
import { createServerLink, execute } from '../helpers/links';
import { TIME } from '../helpers/session';

const { T0 } = TIME;
const URI = 'http://auth.test/graphql';
const CREDENTIALS: ServiceCredentials = { email: 'svc@b.test', password: 'svc-pass' };

const live: ServiceAuth[] = [];
beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  for (const auth of live.splice(0)) auth.dispose();
  vi.useRealTimers();
});

/** A service session on a fetch stub that answers at once, and a server link behind its link. */
function service(
  credentials: () => ServiceCredentials | Promise<ServiceCredentials>,
  options: { refreshTimeout?: number; retryDelay?: number } = {},
) {
  const stub = createFetchStub({ auto: true });
  const server = createServerLink();
  const onError = vi.fn();
  const auth = createServiceAuth({
    uri: URI,
    fetch: stub.fetch,
    credentials,
    onError,
    refreshOnResume: false,
    ...options,
  });
  live.push(auth);
  return { auth, stub, server, onError, link: ApolloLink.from([auth.link, server.link]) };
}

describe('createServiceAuth: credentials() is bounded and its failures back off', () => {
  it('errors an operation with an AuthRequestError after the default refreshTimeout (30 s) when credentials() never settles', async () => {
    const credentials = vi.fn(() => new Promise<ServiceCredentials>(() => {}));
    const { stub, server, link } = service(credentials, { retryDelay: 5_000 });
    const run = execute(link);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(run.settled).toBe(false);
    expect(credentials).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.settled).toBe(true);
    expect(AuthRequestError.is(run.error)).toBe(true);
    expect(run.error).toMatchObject({
      operation: 'loginWithEmailPassword',
      message: 'credentials() did not answer in time.',
    });
    expect(run.results).toEqual([]);
    expect(stub.calls).toHaveLength(0);
    expect(server.attempts).toHaveLength(0);

    // Backed off: the next operation fails at once with the same failure and does not ask again.
    const next = execute(link);
    await vi.advanceTimersByTimeAsync(0);
    expect(next.error).toBe(run.error);
    expect(credentials).toHaveBeenCalledTimes(1);
  });

  it('bounds credentials() by a configured refreshTimeout', async () => {
    const credentials = vi.fn(() => new Promise<ServiceCredentials>(() => {}));
    const { auth, stub } = service(credentials, { refreshTimeout: 2_000 });
    let error: unknown = 'pending';
    auth.start().then(
      () => void (error = 'resolved'),
      (thrown: unknown) => void (error = thrown),
    );
    await vi.advanceTimersByTimeAsync(1_999);
    expect(error).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/credentials\(\)/);
    expect(stub.calls).toHaveLength(0);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('vault down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('vault down'))],
  ])(
    'backs off like a failed login when credentials() %s: operations fail at once until retryDelay has passed',
    async (_how, failure) => {
      let failing = true;
      const credentials = vi.fn(() => (failing ? failure() : CREDENTIALS));
      const { auth, stub, server, link } = service(credentials, { retryDelay: 5_000 });

      const first = execute(link);
      await vi.advanceTimersByTimeAsync(0);
      expect(first.error).toMatchObject({ message: 'vault down' });
      expect(credentials).toHaveBeenCalledTimes(1);

      // Right after, and just before retryDelay has passed: the same failure at once, credentials() not asked again.
      failing = false;
      const second = execute(link);
      await vi.advanceTimersByTimeAsync(0);
      expect(second.error).toBe(first.error);
      await vi.advanceTimersByTimeAsync(4_999);
      const third = execute(link);
      await vi.advanceTimersByTimeAsync(0);
      expect(third.error).toBe(first.error);
      expect(credentials).toHaveBeenCalledTimes(1);
      expect(stub.calls).toHaveLength(0);
      expect(server.attempts).toHaveLength(0);

      // Once retryDelay has passed, the next operation asks again, logs in and goes out with the new token.
      await vi.advanceTimersByTimeAsync(1);
      const fourth = execute(link);
      await vi.advanceTimersByTimeAsync(0);
      expect(credentials).toHaveBeenCalledTimes(2);
      expect(stub.of('loginWithEmailPassword').map((call) => call.variables)).toEqual([{ ...CREDENTIALS }]);
      const token = (await auth.getAccessToken())!;
      expect(fourth).toMatchObject({
        completed: true,
        error: undefined,
        results: [{ data: { me: { id: 'u_1', token } } }],
      });
      expect(server.attempts.map((attempt) => attempt.authorization)).toEqual([`Bearer ${token}`]);
    },
  );
});
