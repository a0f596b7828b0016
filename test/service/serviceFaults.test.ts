import { ApolloLink } from '@apollo/client';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError } from '../../src';
import { createServiceAuth } from '../../src/service';
import { createFetchStub, rejection } from '../helpers/fetchStub';
import { execute } from '../helpers/links';
import { TIME } from '../helpers/session';

const URI = 'http://auth.test/graphql';
const credentials = () => ({ email: 'svc@b.test', password: 'svc-pass' });

beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * The terminating link, standing in for the API: it records the Authorization header of every attempt and
 * answers `UNAUTHENTICATED` for the tokens in `revoked` (a session the service revoked), data otherwise.
 */
function createApiLink() {
  const authorizations: Array<string | undefined> = [];
  const revoked = new Set<string>();
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const authorization = (operation.getContext().headers as Record<string, string> | undefined)?.authorization;
        authorizations.push(authorization);
        queueMicrotask(() => {
          const token = authorization?.replace(/^Bearer /, '');
          observer.next(
            token && revoked.has(token)
              ? { data: null, errors: [{ message: 'Session revoked', extensions: { code: 'UNAUTHENTICATED' } }] }
              : { data: { me: { id: 'u_1' } } },
          );
          observer.complete();
        });
      }),
  );
  return { link, authorizations, revoked };
}

describe('createServiceAuth under faults', () => {
  it('one backoff during an auth outage: 50 operations over 2 s send a handful of logins, and each fails with the outage', async () => {
    const stub = createFetchStub();
    // Every login fails on the network, at once.
    const fetch: typeof globalThis.fetch = (input, init) => {
      const response = stub.fetch(input, init);
      stub.calls.at(-1)!.fail();
      return response;
    };
    const onError = vi.fn();
    const auth = createServiceAuth({ uri: URI, fetch, credentials, retryDelay: 1000, refreshOnResume: false, onError });
    const api = createApiLink();
    const link = ApolloLink.from([auth.link, api.link]);

    const runs = [];
    for (let n = 0; n < 50; n++) {
      runs.push(execute(link, { n }));
      await vi.advanceTimersByTimeAsync(40);
    }
    await vi.advanceTimersByTimeAsync(0);

    const logins = stub.of('loginWithEmailPassword').length;
    // One login at the start, one when the 1 s backoff ran out: not one per operation.
    expect(logins).toBeGreaterThanOrEqual(2);
    expect(logins).toBeLessThanOrEqual(3);
    expect(stub.calls.length).toBe(logins);
    expect(runs.every((run) => run.settled && !run.completed)).toBe(true);
    for (const run of runs) {
      expect(AuthRequestError.is(run.error)).toBe(true);
      expect(run.error).toMatchObject({ operation: 'loginWithEmailPassword' });
    }
    // No operation went out to the API without a token.
    expect(api.authorizations).toEqual([]);
    expect(auth.getState().status).toBe('unauthenticated');
    auth.dispose();
  });

  it('a revoked session is noticed at once and signed in again: one refresh, rejected, one login, and the operation replayed with the new token', async () => {
    const stub = createFetchStub({ auto: true });
    const onSessionEnd = vi.fn();
    const onError = vi.fn();
    const auth = createServiceAuth({
      uri: URI,
      fetch: stub.fetch,
      credentials,
      refreshOnResume: false,
      onSessionEnd,
      onError,
    });
    const api = createApiLink();
    const link = ApolloLink.from([auth.link, api.link]);
    await auth.start();
    const first = (await auth.getAccessToken())!;
    stub.auto = false;

    // The service revoked the session: its access token, still valid by the clock, is refused.
    api.revoked.add(first);
    const run = execute(link);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(stub.of('refreshToken')[0]!.variables.token).toBe('refresh-p1');

    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await vi.advanceTimersByTimeAsync(0);
    // Signed in again at once, with no time passing: no backoff, no wait for the operation to be retried.
    expect(stub.of('loginWithEmailPassword')).toHaveLength(2);
    expect(stub.last('loginWithEmailPassword').variables).toEqual({ email: 'svc@b.test', password: 'svc-pass' });
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'rejected' }));
    expect(run.settled).toBe(false);

    stub.answer(stub.last('loginWithEmailPassword'));
    await vi.advanceTimersByTimeAsync(0);
    const second = (await auth.getAccessToken())!;
    expect(second).not.toBe(first);
    expect(run.completed).toBe(true);
    expect(run.error).toBeUndefined();
    expect(run.results).toEqual([{ data: { me: { id: 'u_1' } } }]);
    expect(api.authorizations).toEqual([`Bearer ${first}`, `Bearer ${second}`]);
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(auth.getState().status).toBe('authenticated');
    expect(Date.now()).toBe(TIME.T0);
    expect(onError).not.toHaveBeenCalled();
    auth.dispose();
  });
});
