import { ApolloLink } from '@apollo/client';
import { describe, expect, it } from 'vitest';
import { TokenAuthLink } from '../../src/link/TokenAuthLink';
import { asAuth, createServerLink, execute } from '../helpers/links';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('TokenAuthLink', () => {
  it('sets Authorization: Bearer <token> and forwards synchronously when the token is at hand', async () => {
    const server = createServerLink();
    const link = ApolloLink.from([new TokenAuthLink({ auth: asAuth({ accessToken: () => 'tok-1' }) }), server.link]);
    const run = execute(link);
    expect(server.attempts).toEqual([{ authorization: 'Bearer tok-1', variables: {} }]);
    await run.done;
    expect(run.completed).toBe(true);
  });

  it('sends no Authorization header without a session', async () => {
    const server = createServerLink();
    const link = ApolloLink.from([new TokenAuthLink({ auth: asAuth({ accessToken: () => null }) }), server.link]);
    await execute(link).done;
    expect(server.attempts).toEqual([{ authorization: undefined, variables: {} }]);
  });

  it('waits for a pending token, then sends the new one', async () => {
    const server = createServerLink();
    const token = deferred<string | null>();
    const link = ApolloLink.from([
      new TokenAuthLink({ auth: asAuth({ accessToken: () => token.promise }) }),
      server.link,
    ]);
    const run = execute(link);
    await Promise.resolve();
    expect(server.attempts).toHaveLength(0);
    token.resolve('tok-new');
    await run.done;
    expect(server.attempts[0]!.authorization).toBe('Bearer tok-new');
  });

  it('errors the operation with the failure when the token cannot be had', async () => {
    const server = createServerLink();
    const token = deferred<string | null>();
    const link = ApolloLink.from([
      new TokenAuthLink({ auth: asAuth({ accessToken: () => token.promise }) }),
      server.link,
    ]);
    const run = execute(link);
    token.reject(new Error('refresh failed'));
    await run.done;
    expect(run.error).toEqual(new Error('refresh failed'));
    expect(server.attempts).toHaveLength(0);
  });

  it('sends nothing for an operation unsubscribed while it waits', async () => {
    const server = createServerLink();
    const token = deferred<string | null>();
    const link = ApolloLink.from([
      new TokenAuthLink({ auth: asAuth({ accessToken: () => token.promise }) }),
      server.link,
    ]);
    const run = execute(link);
    run.subscription.unsubscribe();
    token.resolve('tok');
    await token.promise;
    await Promise.resolve();
    expect(server.attempts).toHaveLength(0);
    expect(run.settled).toBe(false);
  });
});
