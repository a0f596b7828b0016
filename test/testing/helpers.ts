import { afterEach } from 'vitest';
import { createTestAuthServer, type TestAuthServer, type TestAuthServerOptions } from '../../src/testing';

export const LOGIN =
  'mutation($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){accessToken refreshToken user{id email role}}}';
export const REFRESH = 'mutation($token:String!){refreshToken(token:$token){accessToken refreshToken}}';
export const LOGOUT = 'mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}';
export const ME = '{me{id email role}}';

// The sign-in doors beyond the contract, each selecting what a client would read.
const PAYLOAD = 'accessToken refreshToken user{id email role}';
export const REGISTER = `mutation($email:String!,$password:String!){register(email:$email,password:$password){${PAYLOAD}}}`;
export const REQUEST_CODE = 'mutation($email:String!){requestSignInCode(email:$email){email expiresIn}}';
export const SIGN_IN_WITH_CODE = `mutation($email:String!,$code:String!){signInWithCode(email:$email,code:$code){${PAYLOAD}}}`;
export const SIGN_IN = `mutation($email:String!,$password:String!){signIn(email:$email,password:$password){__typename ...on AuthPayload{${PAYLOAD}} ...on SecondFactorRequired{challenge}}}`;
export const VERIFY_SECOND_FACTOR = `mutation($challenge:String!,$code:String!){verifySecondFactor(challenge:$challenge,code:$code){${PAYLOAD}}}`;
export const SIGN_IN_WITH_ID_TOKEN = `mutation($idToken:String!){signInWithIdToken(idToken:$idToken){${PAYLOAD}}}`;
export const MINUTE = 60_000;

export interface GqlBody {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions: { code: string } }>;
}

/** Posts one operation (or, given an array, a batch) to `server.fetch`, in-process, or to `url` over HTTP. */
export async function post(
  target: TestAuthServer | string,
  body: object,
  token?: string,
): Promise<{ status: number; body: any }> {
  const send =
    typeof target === 'string'
      ? (init: RequestInit) => fetch(target, init)
      : (init: RequestInit) => target.fetch('/graphql', init);
  const response = await send({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** One operation's answer. */
export async function gql(target: TestAuthServer | string, query: string, variables?: object, token?: string) {
  const { status, body } = await post(target, { query, variables }, token);
  return { status, body: body as GqlBody };
}

/** Logs in and returns the pair. */
export async function login(target: TestAuthServer | string, email = 'admin@demo.test', password = 'admin-pass') {
  const { body } = await gql(target, LOGIN, { email, password });
  const { accessToken, refreshToken, user } = body.data!['loginWithEmailPassword'];
  return { accessToken: accessToken as string, refreshToken: refreshToken as string, user };
}

/** The `extensions.code` of each error. */
export const codes = (body: GqlBody) => body.errors?.map((error) => error.extensions.code);

/** A `start(options)` that creates a test server, each closed after the test that started it. */
export function useTestServers(): (options?: TestAuthServerOptions) => TestAuthServer {
  const servers: TestAuthServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return (options) => {
    const server = createTestAuthServer(options);
    servers.push(server);
    return server;
  };
}
