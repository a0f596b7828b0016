import type { TestAuthServer, TestAuthServerOptions } from '../../src/testing';
import { LOGIN, REFRESH, useTestServers, type GqlBody } from './helpers';

/** An answer over HTTP, with its headers. */
export interface GqlResponse {
  status: number;
  headers: Headers;
  body: GqlBody;
}

/** The pair an answer carries. */
export interface Pair {
  accessToken: string;
  refreshToken: string;
}

/** The counters of the sign-in doors beyond the contract, for tests that call none of them. */
export const NO_SIGN_IN_DOOR_CALLS = {
  registerCalls: 0,
  requestSignInCodeCalls: 0,
  signInWithCodeCalls: 0,
  signInCalls: 0,
  verifySecondFactorCalls: 0,
  signInWithIdTokenCalls: 0,
};

/** A `start(options)` that creates a test server listening on 127.0.0.1 (an ephemeral port), closed after the test. */
export function useListeningServers(): (options?: TestAuthServerOptions) => Promise<TestAuthServer> {
  const create = useTestServers();
  return async (options) => {
    const server = create(options);
    await server.listen();
    return server;
  };
}

/** Posts one operation to the server's URL, with a bearer `token` or a raw `authorization` header. */
export async function gql(
  server: TestAuthServer,
  query: string,
  { variables, token, authorization }: { variables?: object; token?: string; authorization?: string } = {},
): Promise<GqlResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const header = authorization ?? (token === undefined ? undefined : `Bearer ${token}`);
  if (header !== undefined) headers['authorization'] = header;
  const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GqlBody };
}

/** Logs in over HTTP (the owner unless told) and returns the pair. */
export async function login(server: TestAuthServer, email = 'owner@demo.test', password = 'owner-pass'): Promise<Pair> {
  const { body } = await gql(server, LOGIN, { variables: { email, password } });
  const { accessToken, refreshToken } = body.data?.['loginWithEmailPassword'] as Pair;
  return { accessToken, refreshToken };
}

/** Refreshes over HTTP with `token`. */
export function refresh(server: TestAuthServer, token: string): Promise<GqlResponse> {
  return gql(server, REFRESH, { variables: { token } });
}

/** Calls a route of the server beside `/graphql`, such as `/control/stats`. */
export function control(server: TestAuthServer, path: string, method = 'POST'): Promise<Response> {
  return fetch(server.url.replace('/graphql', path), { method });
}
