import { ApolloLink } from '@apollo/client';
import { ServerError } from '@apollo/client/errors';
import { Observable, of, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { isTokenExpiredError } from '../../src';
import { TokenAuthLink } from '../../src/link/TokenAuthLink';
import { TokenExpiredLink } from '../../src/link/TokenExpiredLink';
import { asAuth, createServerLink, execute, expiredResult } from '../helpers/links';

/** A session stand-in whose token changes when recover() is called. */
function createSource() {
  let token = 'tok-1';
  let n = 1;
  const recover = vi.fn(async (usedToken: string | undefined) => {
    if (usedToken === token) token = `tok-${++n}`;
  });
  return {
    accessToken: () => token,
    recover,
    get token() {
      return token;
    },
  };
}

function chain(
  source: ReturnType<typeof createSource>,
  terminating: ApolloLink,
  isExpired?: TokenExpiredLink.Options['isTokenExpiredError'],
) {
  return ApolloLink.from([
    new TokenExpiredLink({ auth: asAuth(source), isTokenExpiredError: isExpired }),
    new TokenAuthLink({ auth: asAuth(source) }),
    terminating,
  ]);
}

describe('TokenExpiredLink', () => {
  it('replays a TOKEN_EXPIRED operation once with the new token and passes the replay result on', async () => {
    const source = createSource();
    const server = createServerLink();
    server.expired.add('tok-1');
    const run = execute(chain(source, server.link));
    await run.done;
    expect(server.attempts.map((a) => a.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(source.recover).toHaveBeenCalledTimes(1);
    expect(source.recover).toHaveBeenCalledWith('tok-1');
    expect(run.results).toEqual([{ data: { me: { id: 'u_1', token: 'tok-2' } } }]);
    expect(run.completed).toBe(true);
  });

  it('passes the replay failure on unchanged and never replays twice', async () => {
    const source = createSource();
    const server = createServerLink();
    server.expired.add('tok-1').add('tok-2');
    const run = execute(chain(source, server.link));
    await run.done;
    expect(server.attempts).toHaveLength(2);
    expect(source.recover).toHaveBeenCalledTimes(1);
    expect(run.results).toEqual([expiredResult()]);
    expect(run.completed).toBe(true);
  });

  it('passes other errors and results through untouched', async () => {
    const source = createSource();
    const other = { data: null, errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }] };
    const failing = new ApolloLink(
      () =>
        new Observable((o) => {
          o.next(other);
          o.complete();
        }),
    );
    const run = execute(chain(source, failing));
    await run.done;
    expect(run.results).toEqual([other]);
    const network = new TypeError('fetch failed');
    const broken = execute(chain(source, new ApolloLink(() => throwError(() => network))));
    await broken.done;
    expect(broken.error).toBe(network);
    expect(source.recover).not.toHaveBeenCalled();
  });

  it('replays a TOKEN_EXPIRED that arrives as a ServerError with a GraphQL body (HTTP 401)', async () => {
    const source = createSource();
    let calls = 0;
    const terminating = new ApolloLink(() => {
      if (calls++ > 0)
        return new Observable((o) => {
          o.next({ data: { ok: true } });
          o.complete();
        });
      const bodyText = JSON.stringify(expiredResult());
      return throwError(() => new ServerError('401', { response: new Response(bodyText, { status: 401 }), bodyText }));
    });
    const run = execute(chain(source, terminating));
    await run.done;
    expect(run.results).toEqual([{ data: { ok: true } }]);
    expect(source.recover).toHaveBeenCalledTimes(1);
  });

  it('errors the operation with the refresh failure', async () => {
    const source = createSource();
    const failure = new Error('session ended');
    source.recover.mockRejectedValueOnce(failure);
    const server = createServerLink();
    server.expired.add('tok-1');
    const run = execute(chain(source, server.link));
    await run.done;
    expect(run.error).toBe(failure);
    expect(server.attempts).toHaveLength(1);
  });

  it('uses a custom predicate with the operation', async () => {
    const source = createSource();
    const server = createServerLink();
    server.expired.add('tok-1');
    const isExpired = vi.fn(() => false);
    const run = execute(chain(source, server.link, isExpired));
    await run.done;
    expect(isExpired).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'CombinedGraphQLErrors' }),
      expect.objectContaining({ operationName: 'Me' }),
    );
    expect(run.results).toEqual([expiredResult()]);
  });

  it('tears down a replay that is waiting for the refresh when unsubscribed', async () => {
    const source = createSource();
    let release!: () => void;
    source.recover.mockImplementationOnce(() => new Promise<void>((r) => (release = r)));
    const server = createServerLink();
    server.expired.add('tok-1');
    const run = execute(chain(source, server.link));
    await vi.waitFor(() => expect(source.recover).toHaveBeenCalled());
    run.subscription.unsubscribe();
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(server.attempts).toHaveLength(1);
    expect(run.settled).toBe(false);
  });
});

describe('TokenExpiredLink with partial results', () => {
  it('passes a TOKEN_EXPIRED chunk on without a replay once earlier chunks were delivered', async () => {
    const source = createSource();
    const chunk = { data: { me: { id: 'u_1' } }, hasNext: true };
    const streaming = new ApolloLink(
      () =>
        new Observable((o) => {
          o.next(chunk);
          o.next(expiredResult());
          o.complete();
        }),
    );
    const run = execute(chain(source, streaming));
    await run.done;
    expect(run.results).toEqual([chunk, expiredResult()]);
    expect(source.recover).not.toHaveBeenCalled();
  });

  it('stops listening to the first attempt, refused synchronously, when the replay starts', async () => {
    const source = createSource();
    let firstClosed = false;
    let calls = 0;
    const terminating = new ApolloLink(
      () =>
        new Observable((o) => {
          if (calls++ === 0) {
            o.next(expiredResult());
            return () => {
              firstClosed = true;
            };
          }
          // The replay delivers and stays open, as a subscription does.
          o.next({ data: { ok: true } });
          return undefined;
        }),
    );
    const run = execute(chain(source, terminating));
    await vi.waitFor(() => expect(run.results).toEqual([{ data: { ok: true } }]));
    expect(run.settled).toBe(false);
    expect(firstClosed).toBe(true);
    run.subscription.unsubscribe();
  });

  it('delivers the replay, not the end, of a first attempt that refuses and completes synchronously', async () => {
    const source = createSource();
    let calls = 0;
    const terminating = new ApolloLink(
      () =>
        new Observable((o) => {
          o.next(calls++ === 0 ? expiredResult() : { data: { ok: true } });
          o.complete();
        }),
    );
    const run = execute(chain(source, terminating));
    expect(run.settled).toBe(false);
    await run.done;
    expect(calls).toBe(2);
    expect(run).toMatchObject({ completed: true, results: [{ data: { ok: true } }] });
  });

  it.each([
    ['a result with errors', () => of(expiredResult())],
    ['an error', () => throwError(() => new Error('network'))],
  ])('errors the operation with what a predicate threw on %s', async (_, answer) => {
    const source = createSource();
    const thrown = new Error('predicate broke');
    const isExpired = () => {
      throw thrown;
    };
    const run = execute(chain(source, new ApolloLink(answer), isExpired));
    await run.done;
    expect(run).toMatchObject({ completed: false, error: thrown, results: [] });
    expect(source.recover).not.toHaveBeenCalled();
  });
});

describe('isTokenExpiredError', () => {
  it.each([
    ['a plain Error', new Error('TOKEN_EXPIRED'), false],
    [
      'a ServerError whose body is not JSON',
      new ServerError('401', { response: new Response('', { status: 401 }), bodyText: 'Unauthorized' }),
      false,
    ],
    [
      'a ServerError whose body has another code',
      new ServerError('401', {
        response: new Response('', { status: 401 }),
        bodyText: JSON.stringify({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] }),
      }),
      false,
    ],
    [
      'a ServerError whose body has TOKEN_EXPIRED',
      new ServerError('401', {
        response: new Response('', { status: 401 }),
        bodyText: JSON.stringify(expiredResult()),
      }),
      true,
    ],
    // A batch (BatchHttpLink) answered 401: the body is an array of results.
    [
      'a ServerError whose body is an array of results, one with TOKEN_EXPIRED',
      new ServerError('401', {
        response: new Response('', { status: 401 }),
        bodyText: JSON.stringify([{ data: { ok: true } }, expiredResult()]),
      }),
      true,
    ],
    [
      'a ServerError whose body is an array of results without it',
      new ServerError('401', {
        response: new Response('', { status: 401 }),
        bodyText: JSON.stringify([{ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] }]),
      }),
      false,
    ],
    ['undefined', undefined, false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isTokenExpiredError(error)).toBe(expected);
  });
});
