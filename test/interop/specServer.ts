import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import {
  createMemoryTokenStore,
  createTokenAuth,
  type TokenAuth,
  type TokenAuthOptions,
  type TokenStore,
} from '../../src';
import { createTestClock, type TestClock } from '../../src/testing';
import type { SpecAuthServiceOptions } from './servers/specAuthService';
import type { SpecServer } from './servers/startApolloServerSpec';

/** The spec's `me` query. */
export const ME = gql`
  query Me {
    me {
      id
      email
    }
  }
`;

/** An admin of {@link SPEC_USERS}. */
export const ADMIN = { id: 'u-admin', email: 'admin@interop.test', password: 'admin-pass' } as const;

/** What a raw GraphQL POST got back: the HTTP status, the first error's message and code, the data. */
export interface RawAnswer {
  readonly status: number;
  readonly message: string | undefined;
  readonly code: unknown;
  readonly data: unknown;
}

/** Posts one GraphQL document to `url` with plain `fetch`, as a script would, bypassing the package. */
export async function postGraphQL(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: unknown;
    errors?: Array<{ message?: string; extensions?: { code?: unknown } }>;
  };
  return {
    status: response.status,
    message: body.errors?.[0]?.message,
    code: body.errors?.[0]?.extensions?.code,
    data: body.data,
  };
}

/** The spec's three mutations and `me`, for {@link postGraphQL}. */
export const DOCUMENTS = {
  login:
    'mutation($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){accessToken refreshToken}}',
  refresh: 'mutation($token:String!){refreshToken(token:$token){accessToken refreshToken}}',
  logout: 'mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}',
  me: '{ me { id email } }',
} as const;

/** A `fetch` whose answers, read whole, `clock.advance()` waits for: real HTTP under a test clock. */
export function trackedFetch(clock: TestClock): typeof fetch {
  return (input, init) => {
    const answer = fetch(input, init).then(async (response) => {
      const body = await response.arrayBuffer();
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    });
    clock.track(answer);
    return answer;
  };
}

/** A spec server, a session against it with default options, and an Apollo Client over real HTTP, on one test clock. */
export interface Rig {
  readonly server: SpecServer;
  readonly clock: TestClock;
  readonly auth: TokenAuth;
  readonly store: TokenStore;
  readonly client: ApolloClient;
  readonly ended: Parameters<NonNullable<TokenAuthOptions['onSessionEnd']>>[0][];
}

/** Starts `start`'s server and a session on a test clock shared by both; closes both through `cleanups`. */
export async function startRig(
  cleanups: Array<() => unknown>,
  start: (options: SpecAuthServiceOptions) => Promise<SpecServer>,
  options: { server?: SpecAuthServiceOptions; auth?: Partial<TokenAuthOptions> } = {},
): Promise<Rig> {
  const clock = createTestClock();
  const server = await start({ now: clock.now, ...options.server });
  cleanups.push(() => server.close());
  const fetch = trackedFetch(clock);
  const store = createMemoryTokenStore();
  const ended: Rig['ended'] = [];
  // Default options, but for the clock (and the resume source, which Node does not have).
  const auth = createTokenAuth({
    uri: server.url,
    fetch,
    clock,
    store,
    refreshOnResume: false,
    onSessionEnd: (event) => ended.push(event),
    ...options.auth,
  });
  cleanups.push(() => auth.dispose());
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: server.url, fetch })]),
    cache: new InMemoryCache(),
  });
  return { server, clock, auth, store, client, ended };
}

/**
 * Advances `rig.clock` by `step` ms at a time until `done()` holds or `limit` ms have passed; returns the
 * virtual time it took (`Infinity` when it never held).
 */
export async function advanceUntil(clock: TestClock, done: () => boolean, limit: number, step = 500): Promise<number> {
  const start = clock.now();
  while (!done()) {
    if (clock.now() - start >= limit) return Infinity;
    await clock.advance(step);
  }
  return clock.now() - start;
}
