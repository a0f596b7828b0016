import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql, GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createGraphQLTransport,
  createTokenAuth,
  SessionEndedError,
  type SessionEndEvent,
  type TokenAuthTransport,
  type TransportAnswer,
} from '../../src';
import { clientFor, ping, startDemoServer, useCleanups } from '../helpers/overHttp';

const cleanups = useCleanups();

// The same service under other names: what a third-party auth server might look like.
const SCHEMA = buildSchema(`
  type Account { id: ID! email: String! role: String! }
  type Session { jwt: String! renewal: String! account: Account! }
  type Pair { jwt: String! renewal: String! }
  type SignOut { ok: Boolean! }
  type Query { health: Boolean }
  type Mutation {
    signIn(login: String!, secret: String!): Session!
    renewSession(refresh: String!): Pair!
    signOut(refresh: String!): SignOut!
  }
`);

/** A real GraphQL server on 127.0.0.1 whose resolvers forward to the spec's mutations on `upstream`. */
async function startRenamedServer(upstream: string) {
  const calls = { signIn: 0, renewSession: 0, signOut: 0 };
  const renewals: string[] = [];
  const forward = async (field: string, query: string, variables: Record<string, string>) => {
    const response = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json().catch(() => null)) as {
      data?: Record<string, Record<string, unknown>>;
      errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
    } | null;
    const error = body?.errors?.[0];
    // GraphQL errors pass through with their code; anything else is this server failing.
    if (error) throw new GraphQLError(error.message, { extensions: error.extensions });
    const data = body?.data?.[field];
    if (!data)
      throw new GraphQLError(`upstream answered HTTP ${response.status}`, {
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    return data;
  };
  const renamed = (answer: Record<string, unknown>) => {
    renewals.push(answer.refreshToken as string);
    return { jwt: answer.accessToken, renewal: answer.refreshToken, account: answer.user };
  };
  const rootValue = {
    async signIn({ login, secret }: { login: string; secret: string }) {
      calls.signIn++;
      const query =
        'mutation($e:String!,$p:String!){loginWithEmailPassword(email:$e,password:$p){accessToken refreshToken user{id email role}}}';
      return renamed(await forward('loginWithEmailPassword', query, { e: login, p: secret }));
    },
    async renewSession({ refresh }: { refresh: string }) {
      calls.renewSession++;
      return renamed(
        await forward('refreshToken', 'mutation($t:String!){refreshToken(token:$t){accessToken refreshToken}}', {
          t: refresh,
        }),
      );
    },
    async signOut({ refresh }: { refresh: string }) {
      calls.signOut++;
      const { success } = await forward('logout', 'mutation($r:String!){logout(refreshToken:$r){success}}', {
        r: refresh,
      });
      return { ok: success };
    },
  };
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text) as { query: string; variables?: Record<string, unknown> };
  };
  const server = createServer((req, res) => {
    read(req)
      .then(({ query, variables }) => graphql({ schema: SCHEMA, source: query, rootValue, variableValues: variables }))
      .then((result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)))
      .catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, calls, renewals };
}

// The spec's variables, and aliases that give back the spec's field names.
const DOCUMENTS = {
  login:
    'mutation($email:String!,$password:String!){loginWithEmailPassword: signIn(login:$email,secret:$password){accessToken: jwt refreshToken: renewal user: account{id email role}}}',
  refresh:
    'mutation($token:String!){refreshToken: renewSession(refresh:$token){accessToken: jwt refreshToken: renewal}}',
  logout: 'mutation($refreshToken:String!){logout: signOut(refresh:$refreshToken){success: ok}}',
};

/** A transport written by hand over the renamed server, as an app would for a service of its own. */
function handWrittenTransport(uri: string): TokenAuthTransport & { calls: string[] } {
  const calls: string[] = [];
  const post = async (field: string, query: string, variables: Record<string, string>, signal: AbortSignal) => {
    calls.push(field);
    let body: { data?: Record<string, Record<string, unknown>> | null; errors?: AuthRejectedError['errors'] };
    try {
      const response = await fetch(uri, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal,
      });
      body = await response.json();
    } catch (cause) {
      throw new AuthRequestError(`${field} failed on the network.`, field, undefined, cause);
    }
    if (body.errors?.length) throw new AuthRejectedError(`${field} was rejected.`, field, body.errors);
    const data = body.data?.[field];
    if (!data) throw new AuthRequestError(`${field} answered without data.`, field);
    return data;
  };
  const pair = ({ jwt, renewal, account }: Record<string, unknown>): TransportAnswer => ({
    accessToken: jwt,
    refreshToken: renewal,
    user: account,
  });
  return {
    calls,
    login: async (email, password, signal) =>
      pair(
        await post(
          'signIn',
          'mutation($l:String!,$s:String!){signIn(login:$l,secret:$s){jwt renewal account{id email role}}}',
          { l: email, s: password },
          signal,
        ),
      ),
    refresh: async (token, signal) =>
      pair(
        await post('renewSession', 'mutation($r:String!){renewSession(refresh:$r){jwt renewal}}', { r: token }, signal),
      ),
    logout: (tokens, signal) =>
      post('signOut', 'mutation($r:String!){signOut(refresh:$r){ok}}', { r: tokens.refreshToken }, signal),
  };
}

async function setup(transportFor: (uri: string) => TokenAuthTransport) {
  const upstream = await startDemoServer(cleanups);
  const renamed = await startRenamedServer(upstream.url);
  const errors: unknown[] = [];
  const ended: SessionEndEvent[] = [];
  const transport = transportFor(renamed.url);
  const auth = createTokenAuth({
    transport,
    onError: (error) => errors.push(error),
    onSessionEnd: (event) => ended.push(event),
  });
  cleanups.push(() => auth.dispose());
  // Operations go to the upstream; only the auth calls go to the renamed server.
  const client = clientFor(auth.link, upstream.url);
  return { upstream, renamed, transport, auth, client, errors, ended };
}

/** Expires the access token upstream and runs one operation: it must come through one refresh. */
async function expireAndPing(context: Awaited<ReturnType<typeof setup>>) {
  const { upstream, client, auth } = context;
  const before = await auth.getAccessToken();
  upstream.expireAllAccessTokens();
  upstream.resetStats();
  expect((await ping(client, 2)).data).toEqual({ ping: 2 });
  expect(upstream.stats).toMatchObject({ tokenExpired: 1, refreshCalls: 1, refreshSuccesses: 1, loginCalls: 0 });
  const after = await auth.getAccessToken();
  expect(after).not.toBe(before);
  // The operation went out with the old token, then with the new one (the renamed server's calls carry none).
  expect(upstream.stats.authorizationHeaders.filter(Boolean)).toEqual([`Bearer ${before}`, `Bearer ${after}`]);
}

describe('a custom transport works end to end over HTTP, against a server whose auth mutations have other names', () => {
  it('createGraphQLTransport with aliasing documents logs in, refreshes once through renewSession and replays the expired operation', async () => {
    const context = await setup((uri) => createGraphQLTransport({ uri, documents: DOCUMENTS }));
    const { auth, client, renamed, upstream, errors } = context;
    const { user } = await auth.login('cashier@demo.test', 'cashier-pass');
    expect(user).toMatchObject({ id: 'u_cashier', email: 'cashier@demo.test', role: 'Cashier' });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { role: 'Cashier' } });
    expect(upstream.stats.loginCalls).toBe(1);
    expect((await ping(client, 1)).data).toEqual({ ping: 1 });

    await expireAndPing(context);
    expect(renamed.calls).toEqual({ signIn: 1, renewSession: 1, signOut: 0 });
    expect(errors).toEqual([]);
  });

  it('a refresh that the service rejects through renewSession ends the session as rejected, with the code passed through', async () => {
    const { auth, client, renamed, upstream, ended } = await setup((uri) =>
      createGraphQLTransport({ uri, documents: DOCUMENTS }),
    );
    await auth.login('admin@demo.test', 'admin-pass');
    upstream.revokeAllSessions();
    // The access token is refused as UNAUTHENTICATED; the one refresh that tells is refused too.
    const error = await ping(client, 1).catch((e: unknown) => e);
    expect(SessionEndedError.is(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'rejected',
      cause: { name: 'AuthRejectedError', code: 'INVALID_REFRESH_TOKEN', operation: 'refreshToken' },
    });
    expect(renamed.calls.renewSession).toBe(1);
    expect(upstream.stats.refreshCalls).toBe(1);
    expect(ended.map((event) => event.reason)).toEqual(['rejected']);
    expect(auth.getState().status).toBe('unauthenticated');
  });

  it('logout revokes the newest pair through signOut', async () => {
    const context = await setup((uri) => createGraphQLTransport({ uri, documents: DOCUMENTS }));
    const { auth, renamed, upstream, errors, ended } = context;
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh();
    await auth.logout();
    expect(renamed.calls).toEqual({ signIn: 1, renewSession: 1, signOut: 1 });
    // The upstream accepted it: a refresh token it did not know would have been refused and reported.
    expect(upstream.stats.logoutCalls).toBe(1);
    expect(errors).toEqual([]);
    expect(ended.map((event) => event.reason)).toEqual(['logout']);
    // The revoked session's last refresh token no longer works upstream.
    const query = 'mutation($t:String!){refreshToken(token:$t){accessToken}}';
    const body = JSON.stringify({ query, variables: { t: renamed.renewals.at(-1) } });
    const reuse = await fetch(upstream.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then((r) => r.json());
    expect(reuse).toMatchObject({ errors: [{ extensions: { code: 'INVALID_REFRESH_TOKEN' } }] });
  });

  it('a hand-written TokenAuthTransport logs in, refreshes once through renewSession and replays the expired operation', async () => {
    const context = await setup(handWrittenTransport);
    const { auth, client, renamed, transport, errors } = context;
    await expect(auth.login('cashier@demo.test', 'wrong')).rejects.toMatchObject({
      name: 'AuthRejectedError',
      code: 'INVALID_CREDENTIALS',
    });
    const { user } = await auth.login('cashier@demo.test', 'cashier-pass');
    expect(user).toMatchObject({ id: 'u_cashier', email: 'cashier@demo.test', role: 'Cashier' });
    expect((await ping(client, 1)).data).toEqual({ ping: 1 });

    await expireAndPing(context);
    expect((transport as ReturnType<typeof handWrittenTransport>).calls).toEqual(['signIn', 'signIn', 'renewSession']);
    expect(renamed.calls).toEqual({ signIn: 2, renewSession: 1, signOut: 0 });
    await auth.logout();
    expect(renamed.calls.signOut).toBe(1);
    expect(errors).toEqual([]);
  });
});
