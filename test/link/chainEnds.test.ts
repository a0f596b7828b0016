import { ApolloClient, gql, InMemoryCache } from '@apollo/client';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, createTokenAuth } from '../../src';
import { rejection } from '../helpers/fetchStub';
import { makePair } from '../helpers/jwt';
import { createServerLink, execute } from '../helpers/links';
import { setupLinks, TIME, useTestClock } from '../helpers/session';

// Found following a newcomer's app: `auth.link` used as the last link (the HttpLink forgotten) gave Apollo's generic
// error. And no path of the links may complete an operation without a result, which Apollo Client 4 treats as an
// error of its own.

const { T0, MINUTE } = TIME;

useTestClock();

describe('auth.link with nothing after it', () => {
  it('fails the operation with an error that names the fix', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const auth = createTokenAuth({ uri: 'http://auth.test/graphql', refreshOnResume: false });
    const client = new ApolloClient({ link: auth.link, cache: new InMemoryCache() });
    const query = client.query({ query: gql('query Catalogue { catalogue }'), context: { skipTokenAuth: true } });
    await expect(query).rejects.toThrow(
      'auth.link is the last link of the chain, so nothing sends the operation. Put the link that sends it after ' +
        'auth.link: ApolloLink.from([auth.link, new HttpLink({ uri })]).',
    );
    const signedOut = execute(auth.link);
    await vi.advanceTimersByTimeAsync(0);
    expect(signedOut.error).toMatchObject({ message: /auth\.link is the last link/ });
    auth.dispose();
  });
});

describe('every operation that ends early ends with an error, never empty', () => {
  /** An operation that waits for the refresh of a dead token, through `auth.link` and a server link. */
  async function waiting(options: Parameters<typeof setupLinks>[0] = {}, server = createServerLink()) {
    const pair = makePair('old');
    const ctx = setupLinks({ store: createMemoryTokenStore(pair), refreshOnResume: false, ...options }, server, false);
    vi.setSystemTime(T0 + 16 * MINUTE);
    const run = execute(ctx.link);
    await vi.advanceTimersByTimeAsync(0);
    expect(ctx.stub.of('refreshToken')).toHaveLength(1);
    return { ...ctx, run };
  }

  const ended = (run: ReturnType<typeof execute>) => ({
    results: run.results.length,
    completed: run.completed,
    errored: run.error !== undefined,
  });

  it('the session ends while it waits: SessionEndedError', async () => {
    const { stub, run } = await waiting();
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await vi.advanceTimersByTimeAsync(0);
    expect(ended(run)).toEqual({ results: 0, completed: false, errored: true });
    expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
  });

  it('the session is disposed while it waits: the dispose error', async () => {
    const { auth, run } = await waiting();
    auth.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(ended(run)).toEqual({ results: 0, completed: false, errored: true });
    expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'dispose' });
  });

  it('the refresh fails without a verdict past what it waits: the failure', async () => {
    const { stub, run } = await waiting({ retryDelay: 60_000, onError: () => {} });
    stub.last('refreshToken').fail(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(0);
    expect(ended(run)).toEqual({ results: 0, completed: false, errored: true });
    expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'refreshToken' });
  });

  it('the opt-out, while the refresh is out: the result', async () => {
    const server = createServerLink();
    const { link, run } = await waiting({}, server);
    const skipping = execute(link, {}, { skipTokenAuth: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(ended(skipping)).toEqual({ results: 1, completed: true, errored: false });
    expect(run.settled).toBe(false);
  });
});
