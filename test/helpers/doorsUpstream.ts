import { extendSchema, graphql, GraphQLError, Kind, parse } from 'graphql';
import { expect } from 'vitest';
import type { TokenHandlerOptions } from '../../src/server/createTokenHandler';
import { createTestAuthServer, TEST_USERS, type TestAuthServer, type TestUser } from '../../src/testing';
import { schema } from '../../src/testing/schema';
import { serveHttp } from '../../src/testing/serveHttp';
import { startTokenHandler, type TokenHandlerRig } from './tokenHandler';

// The app's sign-in doors, as the handler holds them (its `signIns`), for the mutations the test server is to
// have: a sign-up, a code by e-mail, a login answered by a second factor's challenge or a pair, the second factor.
const PAYLOAD = 'accessToken refreshToken user { id email role }';
export const DOORS = {
  register: `mutation ($email: String!, $password: String!) { register(email: $email, password: $password) { ${PAYLOAD} } }`,
  requestCode: 'mutation ($email: String!) { requestSignInCode(email: $email) { email expiresIn } }',
  withCode: `mutation ($email: String!, $code: String!) { signInWithCode(email: $email, code: $code) { ${PAYLOAD} } }`,
  signIn: `mutation ($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      __typename
      ... on AuthPayload { ${PAYLOAD} }
      ... on SecondFactorRequired { challenge }
    }
  }`,
  secondFactor: `mutation ($challenge: String!, $code: String!) { verifySecondFactor(challenge: $challenge, code: $code) { ${PAYLOAD} } }`,
} as const;

/** The account `register` opens (the test server holds it from the start; it signs in only once registered). */
export const NEWCOMER: TestUser = { id: 'u_new', email: 'new@demo.test', password: 'new-pass', role: 'MEMBER' };
/** The account whose password is followed by a second factor. */
export const TWO_FACTOR = 'owner@demo.test';

// The test server's schema (its User and AuthPayload), with the doors' types and mutations.
const SCHEMA = extendSchema(
  schema,
  parse(/* GraphQL */ `
    type SignInCodeSent {
      email: String!
      expiresIn: Int!
    }
    type SecondFactorRequired {
      challenge: String!
    }
    union SignInResult = AuthPayload | SecondFactorRequired
    extend type Mutation {
      register(email: String!, password: String!): AuthPayload!
      requestSignInCode(email: String!): SignInCodeSent!
      signInWithCode(email: String!, code: String!): AuthPayload!
      signIn(email: String!, password: String!): SignInResult!
      verifySecondFactor(challenge: String!, code: String!): AuthPayload!
    }
  `),
);
const DOOR_FIELDS = new Set(['register', 'requestSignInCode', 'signInWithCode', 'signIn', 'verifySecondFactor']);

/** The test server, and in front of it the door mutations it does not have yet. */
export interface DoorsUpstream {
  /** The URL the handler calls: the doors, and every other operation passed on to the test server. */
  readonly url: string;
  /** The package's test server (listening), which issues every pair and serves refresh and logout. */
  readonly server: TestAuthServer;
  /** The top-level field of every operation that reached `url`, in order: whatever the handler sent upstream. */
  readonly received: string[];
  /** The codes sent (by e-mail, or for a second factor), oldest first. */
  codes(): ReadonlyArray<{ readonly email: string; readonly code: string }>;
  /** Stops answering at `url` (an upstream down); the test server stays up. */
  close(): Promise<void>;
}

const refuse = (code: string, message: string) => new GraphQLError(message, { extensions: { code } });

/**
 * Starts the test server (the contract's 15-minute tokens) and, over HTTP in front of it, the sign-in doors the
 * test server is to have, answered here with pairs it issues, so that its refresh and logout take them. A stand-in
 * until `createTestAuthServer` has these mutations: then `url` is `server.url`.
 */
export async function startDoorsUpstream(cleanups: Array<() => unknown>): Promise<DoorsUpstream> {
  const server = createTestAuthServer({ users: [...TEST_USERS, NEWCOMER] });
  await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  const received: string[] = [];
  const codes: Array<{ email: string; code: string }> = [];
  const challenges = new Map<string, string>();
  let registered = false;
  const send = (email: string) => {
    const code = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, '0');
    codes.push({ email, code });
    return code;
  };
  const payload = async (email: string) => ({
    __typename: 'AuthPayload',
    ...(await server.issueTokens(email)),
    user: server.users.find((user) => user.email === email),
  });
  const spend = (email: string, code: string) => {
    const at = codes.findIndex((each) => each.email === email && each.code === code);
    if (at < 0) throw refuse('INVALID_CODE', 'Wrong or expired code.');
    codes.splice(at, 1);
  };
  const rootValue = {
    async register({ email }: { email: string }) {
      if (email !== NEWCOMER.email || registered)
        throw refuse('EMAIL_TAKEN', 'An account with this e-mail exists already.');
      registered = true;
      return payload(email);
    },
    requestSignInCode: ({ email }: { email: string }) => (send(email), { email, expiresIn: 600 }),
    async signInWithCode({ email, code }: { email: string; code: string }) {
      spend(email, code);
      return payload(email);
    },
    async signIn({ email, password }: { email: string; password: string }) {
      if (!server.users.some((user) => user.email === email && user.password === password))
        throw refuse('INVALID_CREDENTIALS', 'Invalid email or password');
      if (email !== TWO_FACTOR) return payload(email);
      const challenge = crypto.randomUUID();
      challenges.set(challenge, email);
      send(email);
      return { __typename: 'SecondFactorRequired', challenge };
    },
    async verifySecondFactor({ challenge, code }: { challenge: string; code: string }) {
      const email = challenges.get(challenge);
      if (!email) throw refuse('INVALID_CHALLENGE', 'This sign-in has expired: start again.');
      spend(email, code);
      challenges.delete(challenge);
      return payload(email);
    },
  };

  async function handle(request: Request): Promise<Response> {
    const text = await request.text();
    const { query, variables } = JSON.parse(text) as { query: string; variables?: Record<string, unknown> };
    const operation = parse(query).definitions.find((each) => each.kind === Kind.OPERATION_DEFINITION);
    const fields = (operation?.selectionSet.selections ?? []).flatMap((each) =>
      each.kind === Kind.FIELD ? [each.name.value] : [],
    );
    received.push(...fields);
    if (!fields.some((field) => DOOR_FIELDS.has(field))) {
      const headers = new Headers({ 'content-type': 'application/json' });
      for (const name of ['authorization', 'x-forwarded-for']) {
        const value = request.headers.get(name);
        if (value) headers.set(name, value);
      }
      return server.fetch(server.url, { method: 'POST', headers, body: text });
    }
    const result = await graphql({ schema: SCHEMA, source: query, rootValue, variableValues: variables });
    return Response.json(result);
  }

  const http = await serveHttp(handle, 0, '127.0.0.1', async () => undefined);
  cleanups.push(() => http.close());
  return { url: `${http.origin}/graphql`, server, received, codes: () => codes, close: () => http.close() };
}

/** A token handler with the doors of {@link DOORS}, in front of the test server; `handler` adds options. */
export async function startDoorsHandler(
  cleanups: Array<() => unknown>,
  handler: Partial<TokenHandlerOptions> = {},
): Promise<TokenHandlerRig & { readonly doors: DoorsUpstream }> {
  const doors = await startDoorsUpstream(cleanups);
  const rig = await startTokenHandler(cleanups, {
    upstream: doors.server,
    handler: { uri: doors.url, signIns: DOORS, ...handler },
  });
  return Object.assign(rig, { doors });
}

/** Posts `{ name, variables }` to the rig's `/sign-in`, as the page's transport does. */
export const signIn = (rig: TokenHandlerRig, name: string, variables?: Record<string, unknown>) =>
  rig.post('sign-in', { name, variables });

/** Registers {@link NEWCOMER} through the `register` door. */
export const register = (rig: TokenHandlerRig) =>
  signIn(rig, 'register', { email: NEWCOMER.email, password: NEWCOMER.password });

/** No answer the page received, body or header other than Set-Cookie, carries a refresh token the service issued. */
export function expectNoRefreshTokenIn(rig: TokenHandlerRig): void {
  const issued = rig.upstream.stats.refreshTokensIssued;
  expect(issued.length).toBeGreaterThan(0);
  expect(rig.answers.length).toBeGreaterThan(0);
  for (const answer of rig.answers) {
    for (const token of issued) {
      expect(answer.text).not.toContain(token);
      for (const [name, value] of answer.headers) if (name !== 'set-cookie') expect(value).not.toContain(token);
    }
  }
}
