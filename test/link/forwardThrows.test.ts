import { ApolloLink } from '@apollo/client';
import { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenAuth, type TokenPair, createTokenStore } from '../../src';
import { createFetchStub } from '../helpers/fetchStub';
import { makePair } from '../helpers/jwt';
import { execute, expiredResult } from '../helpers/links';
import { TIME } from '../helpers/session';

const { T0 } = TIME;
const URI = 'http://auth.test/graphql';

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

// Runs pending promise callbacks. A link that dropped the error would leave the operation unsettled and an
// unhandled rejection, which vitest reports as an error of the run.
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('a link further down that throws synchronously after the operation had to wait', () => {
  it('errors the operation with the thrown error when it waited for the stored pair to load', async () => {
    let finishRead!: (pair: TokenPair | null) => void;
    const store = createTokenStore({
      get: () => new Promise<TokenPair | null>((resolve) => (finishRead = resolve)),
      set: () => {},
      clear: () => {},
    });
    const stub = createFetchStub();
    const auth = createTokenAuth({ uri: URI, fetch: stub.fetch, store, refreshOnResume: false });
    const thrown = new Error('sync');
    let calls = 0;
    const throwing = new ApolloLink(() => {
      calls++;
      throw thrown;
    });
    const run = execute(ApolloLink.from([auth.link, throwing]));
    await flush();
    // Still loading: the operation waits and nothing went further down yet.
    expect(auth.getState().status).toBe('loading');
    expect(calls).toBe(0);
    expect(run.settled).toBe(false);

    finishRead(makePair('restored'));
    await flush();
    expect(auth.getState().status).toBe('authenticated');
    expect(calls).toBe(1);
    expect(run).toMatchObject({ settled: true, completed: false, error: thrown, results: [] });
    expect(stub.calls).toHaveLength(0);
    auth.dispose();
  });

  it('errors the operation with the thrown error when its replay after TOKEN_EXPIRED throws', async () => {
    const stub = createFetchStub({ auto: true });
    const auth = createTokenAuth({ uri: URI, fetch: stub.fetch, refreshOnResume: false });
    await auth.login('a@b.test', 'pw');
    const first = (await auth.getAccessToken())!;
    stub.calls.length = 0;
    const thrown = new Error('sync on replay');
    const authorizations: Array<string | undefined> = [];
    const server = new ApolloLink((operation) => {
      authorizations.push((operation.getContext().headers as Record<string, string> | undefined)?.authorization);
      if (authorizations.length > 1) throw thrown;
      return new Observable<ApolloLink.Result>((observer) => {
        observer.next(expiredResult());
        observer.complete();
      });
    });
    const run = execute(ApolloLink.from([auth.link, server]));
    await flush();
    expect(stub.of('refreshToken')).toHaveLength(1);
    const renewed = (await auth.getAccessToken())!;
    expect(renewed).not.toBe(first);
    // The first attempt carried the old token; the replay, with the renewed one, threw.
    expect(authorizations).toEqual([`Bearer ${first}`, `Bearer ${renewed}`]);
    expect(run).toMatchObject({ settled: true, completed: false, error: thrown, results: [] });
    auth.dispose();
  });
});
