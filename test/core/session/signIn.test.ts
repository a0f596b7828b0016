import { gql, type TypedDocumentNode } from '@apollo/client';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  shareTokenStore,
  type TokenAuthTransport,
  type TokenAuthEvent,
  type TransportAnswer,
} from '../../../src';
import { rejection, type StubCall } from '../../helpers/fetchStub';
import { makePair } from '../../helpers/jwt';
import { loggedIn, setup, TIME, useTestClock } from '../../helpers/session';

// signIn(name, variables): the app's own doors into a session (sign-up, a one-time code, a second factor, a social
// ID token), each a mutation whose one top-level field answers a pair or the next step.

const { T0, MINUTE } = TIME;

useTestClock();

const REGISTER = `mutation Register($email: String!, $password: String!) {
  register(email: $email, password: $password) { accessToken refreshToken user { id email role } }
}`;
// A server that names the pair otherwise, answered through aliases.
const ALIASED = `mutation ($idToken: String!) {
  googleSignIn(idToken: $idToken) { accessToken: jwt refreshToken: renewal user: account { id email role } }
}`;
// A login that answers a pair, or a challenge for a second factor.
const SIGN_IN = `mutation ($email: String!, $password: String!) {
  signIn(email: $email, password: $password) {
    __typename
    ... on AuthPayload { accessToken refreshToken user { id email role } }
    ... on SecondFactorRequired { challenge }
  }
}`;
const REQUEST_CODE = 'mutation ($email: String!) { requestSignInCode(email: $email) { email expiresIn } }';
const DOORS = { register: REGISTER, google: ALIASED, signIn: SIGN_IN, requestCode: REQUEST_CODE };

const as = (id: string, email: string) => ({ id, email, role: 'MEMBER' });

/** Answers the last call of `field` with a pair of the stub's, for `user`, under `field`. */
function answerPair(call: StubCall, field: string, user = as('u_9', 'new@b.test'), pair = makePair('door')) {
  call.respond({ data: { [field]: { ...pair, user } } });
  return pair;
}

describe('signIn through a door that answers a pair', () => {
  it('begins the session with the pair and the user the door answered, stores it, and tells which door', async () => {
    const { session, stub, store } = setup({ signIns: DOORS });
    const events: TokenAuthEvent[] = [];
    session.observe((event) => events.push(event));
    const signingIn = session.signIn('register', { email: 'new@b.test', password: 'correct horse' });
    await vi.advanceTimersByTimeAsync(0);
    const call = stub.last('register');
    expect(call.variables).toEqual({ email: 'new@b.test', password: 'correct horse' });
    const pair = answerPair(call, 'register');

    const result = await signingIn;
    // The role is the access token's, as at login.
    expect(result).toEqual({ user: expect.objectContaining({ id: 'u_9', email: 'new@b.test', role: 'ADMIN' }) });
    expect(result.next).toBeUndefined();
    expect(await store.get()).toEqual({ ...pair, receivedAt: T0 });
    expect(session.getState()).toMatchObject({ status: 'authenticated', expiresAt: T0 + 15 * MINUTE });
    expect(events.at(-1)).toMatchObject({ type: 'login', via: 'signIn', door: 'register', user: { id: 'u_9' } });
    // Nothing but the door was sent.
    expect(stub.calls.map((each) => each.field)).toEqual(['register']);
  });

  it('reads a pair whose fields the document aliases to the contract’s names', async () => {
    const { session, stub } = setup({ signIns: DOORS });
    const signingIn = session.signIn('google', { idToken: 'id-token' });
    await vi.advanceTimersByTimeAsync(0);
    answerPair(stub.last('googleSignIn'), 'googleSignIn', as('g_1', 'ada@gmail.test'));
    await expect(signingIn).resolves.toMatchObject({ user: { id: 'g_1', email: 'ada@gmail.test' } });
    expect(session.getState().status).toBe('authenticated');
  });

  it('reads the pair of a union answer, and resolves the other member as the next step', async () => {
    const { session, stub, store } = setup({ signIns: DOORS });
    const challenged = session.signIn('signIn', { email: 'twofactor@b.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    stub.last('signIn').respond({ data: { signIn: { __typename: 'SecondFactorRequired', challenge: 'ch_1' } } });
    await expect(challenged).resolves.toEqual({ next: { __typename: 'SecondFactorRequired', challenge: 'ch_1' } });
    expect(await store.get()).toBeNull();
    expect(session.getState().status).toBe('unauthenticated');

    const direct = session.signIn('signIn', { email: 'a@b.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    const pair = makePair('union');
    stub
      .last('signIn')
      .respond({ data: { signIn: { __typename: 'AuthPayload', ...pair, user: as('u_1', 'a@b.test') } } });
    await expect(direct).resolves.toMatchObject({ user: { id: 'u_1' } });
    expect((await store.get())?.refreshToken).toBe(pair.refreshToken);
  });

  it('continues the epoch for the same user, and replaces another user’s session, revoking its pair', async () => {
    const { session, stub, onSessionEnd } = await loggedIn({ auto: false, signIns: DOORS });
    const first = session.getState().user!;
    const same = session.signIn('register', { email: 'a@b.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    answerPair(stub.last('register'), 'register', { id: 'u_1', email: 'a@b.test', role: 'ADMIN' }, makePair('same'));
    await same;
    expect(session.getState().user?.id).toBe(first.id);
    // A new pair for the same user: the one it replaced is revoked, and nothing ended for the app.
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('logout').map((call) => call.variables.refreshToken)).toEqual(['refresh-p1']);
    stub.last('logout').respond({ data: { logout: { success: true } } });

    const other = session.signIn('register', { email: 'c@d.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    answerPair(stub.last('register'), 'register', as('u_2', 'c@d.test'), makePair('other'));
    await other;
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().user?.id).toBe('u_2');
    expect(stub.of('logout').map((call) => call.variables.refreshToken)).toEqual(['refresh-p1', 'refresh-same']);
    // Only the other user ended the first session.
    expect(onSessionEnd.mock.calls).toEqual([[expect.objectContaining({ reason: 'replaced', elsewhere: false })]]);
  });
});

describe('a door’s session in sessions that share a store', () => {
  it('is followed by the other tabs with no request, and ended in them by a logout', async () => {
    const { session, stub, open } = setup({ signIns: DOORS, store: shareTokenStore(createMemoryTokenStore()) });
    const other = open();
    await vi.advanceTimersByTimeAsync(0);
    const signingIn = session.signIn('register', { email: 'new@b.test', password: 'correct horse' });
    await vi.advanceTimersByTimeAsync(0);
    // The other tab knows the user from the token's claims: the same as the door's answer, as on a real server.
    answerPair(stub.last('register'), 'register', { id: 'u_1', email: 'a@b.test', role: 'ADMIN' });
    await signingIn;
    await vi.advanceTimersByTimeAsync(0);
    expect(other.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1', email: 'a@b.test' } });
    expect(other.getState().expiresAt).toBe(session.getState().expiresAt);
    expect(stub.calls.map((call) => call.field)).toEqual(['register']);
    stub.auto = true;
    await session.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(other.getState().status).toBe('unauthenticated');
  });
});

describe('signIn through a door that answers no pair', () => {
  it('resolves the next step as the server sent it, changes nothing, and clears the last failure', async () => {
    const { session, stub } = await loggedIn({ auto: false, signIns: DOORS });
    const before = session.getState();
    const failed = session.signIn('register', { email: 'a@b.test', password: 'short' }).catch((error) => error);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('register').respond(rejection('BAD_USER_INPUT', 'The password needs 8 characters'));
    await failed;
    expect(session.getState().error?.message).toBe('The password needs 8 characters');

    const step = session.signIn('requestCode', { email: 'a@b.test' });
    await vi.advanceTimersByTimeAsync(0);
    stub.last('requestSignInCode').respond({ data: { requestSignInCode: { email: 'a@b.test', expiresIn: 600 } } });
    await expect(step).resolves.toEqual({ next: { email: 'a@b.test', expiresIn: 600 } });
    expect(session.getState()).toEqual(before);
  });

  it('resolves a scalar answer (a Boolean) as the next step', async () => {
    const { session, stub } = setup({ signIns: { sendLink: 'mutation ($e: String!) { sendMagicLink(email: $e) }' } });
    const step = session.signIn('sendLink', { e: 'a@b.test' });
    await vi.advanceTimersByTimeAsync(0);
    stub.last('sendMagicLink').respond({ data: { sendMagicLink: true } });
    await expect(step).resolves.toEqual({ next: true });
  });
});

describe('signIn that fails', () => {
  it('rejects a refusal with the server’s words and code, and leaves the session as it was', async () => {
    const { session, stub, store } = await loggedIn({ auto: false, signIns: DOORS });
    const stored = await store.get();
    const events: TokenAuthEvent[] = [];
    session.observe((event) => events.push(event));
    const signingIn = session.signIn('register', { email: 'a@b.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    stub.last('register').respond(rejection('EMAIL_TAKEN', 'An account with this e-mail exists'));
    const error = await signingIn.catch((e: unknown) => e);
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EMAIL_TAKEN', message: 'An account with this e-mail exists' });
    expect(await store.get()).toEqual(stored);
    expect(session.getState()).toMatchObject({ status: 'authenticated', error });
    expect(events.at(-1)).toMatchObject({ type: 'login', via: 'signIn', door: 'register', error });
  });

  it('rejects a refusal without words (HTTP 401) in plain words about the sign-in', async () => {
    const { session, stub } = setup({ signIns: DOORS });
    const signingIn = session.signIn('register', {});
    await vi.advanceTimersByTimeAsync(0);
    stub.last('register').respondRaw('', 401);
    await expect(signingIn).rejects.toMatchObject({
      name: 'AuthRejectedError',
      message: 'The service refused the sign-in (HTTP 401).',
    });
  });

  it.each([
    ['HTTP 502', (call: StubCall) => call.respondRaw('Bad gateway', 502), /register answered HTTP 502/],
    ['the network', (call: StubCall) => call.fail(), /register failed on the network: .* cannot be reached/],
    [
      'an answer without the field',
      (call: StubCall) => call.respond({ data: null }),
      /register answered without data\./,
    ],
    [
      'a pair whose access token is not a JWT',
      (call: StubCall) => call.respond({ data: { register: { accessToken: 'x', refreshToken: 'r' } } }),
      /not a valid JWT/,
    ],
  ])('rejects %s with an AuthRequestError, and stores nothing', async (_name, answer, message) => {
    const { session, stub, store } = setup({ signIns: DOORS });
    const signingIn = session.signIn('register', { email: 'a@b.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    answer(stub.last('register'));
    const error = await signingIn.catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(await store.get()).toBeNull();
    expect(session.getState().status).toBe('unauthenticated');
  });

  it('refuses a name that is no door at once, naming the doors there are, and sends nothing', async () => {
    const { session, stub } = setup({ signIns: DOORS });
    await expect(session.signIn('regster', {})).rejects.toThrow(
      'no sign-in door "regster" (doors: register, google, signIn, requestCode); add its mutation to `signIns`.',
    );
    const bare = setup();
    await expect(bare.session.signIn('register', {})).rejects.toThrow(/no sign-in door "register" \(doors: none\)/);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.calls).toEqual([]);
    expect(bare.stub.calls).toEqual([]);
  });

  it('waits for a logout in flight when the service keeps the session itself', async () => {
    let logouts = 0;
    let endLogout!: () => void;
    const order: string[] = [];
    const transport: TokenAuthTransport = {
      ownsSession: true,
      login: async () => ({ ...makePair('l'), user: as('u_1', 'a@b.test') }),
      refresh: async () => makePair('r'),
      logout: () => new Promise((resolve) => ((endLogout = () => resolve(order.push('logout'))), (logouts += 1))),
      signIn: async (): Promise<TransportAnswer> => (
        order.push('signIn'),
        { ...makePair('d'), user: as('u_2', 'c@d.test') }
      ),
    };
    const { session } = setup({ transport });
    await session.login('a@b.test', 'pw');
    const logout = session.logout();
    const signingIn = session.signIn('register', {});
    await vi.advanceTimersByTimeAsync(0);
    expect(logouts).toBe(1);
    expect(order).toEqual([]);
    endLogout();
    await logout;
    await expect(signingIn).resolves.toMatchObject({ user: { id: 'u_2' } });
    expect(order).toEqual(['logout', 'signIn']);
  });
});

describe('the signIns option', () => {
  it('refuses an answer of several top-level fields, naming the door, and begins nothing', async () => {
    const { session, stub } = setup({ signIns: { both: 'mutation { a { accessToken } b { x } }' } });
    const signingIn = session.signIn('both', {});
    await vi.advanceTimersByTimeAsync(0);
    stub.calls[0]!.respond({ data: { a: makePair('a'), b: { x: 1 } } });
    await expect(signingIn).rejects.toThrow('both answered a, b: a sign-in document selects one top-level field.');
    expect(session.getState().status).toBe('unauthenticated');
  });

  it('says where to look when the server refuses the document itself', async () => {
    const { session, stub } = setup({ signIns: DOORS });
    const signingIn = session.signIn('register', {});
    await vi.advanceTimersByTimeAsync(0);
    stub
      .last('register')
      .respond(rejection('GRAPHQL_VALIDATION_FAILED', 'Cannot query field "register" on type "Mutation".'), 400);
    const error = await signingIn.catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'register was refused as a document (Cannot query field "register" on type "Mutation".): check signIns.register.',
    );
  });

  it('refuses documents beside a transport of the app’s, naming where they go', () => {
    const transport = { login: vi.fn(), refresh: vi.fn(), logout: vi.fn() };
    expect(() => createTokenAuth({ transport, signIns: { register: REGISTER } })).toThrow(
      /`signIns` are for the default transport: pass them to createGraphQLTransport or createTokenHandler/,
    );
  });

  it('sends a DocumentNode as its printed text', async () => {
    const REGISTER_NODE = gql(REGISTER);
    const { session, stub } = setup({ signIns: { register: REGISTER_NODE } });
    const signingIn = session.signIn('register', { email: 'a@b.test', password: 'pw' });
    await vi.advanceTimersByTimeAsync(0);
    answerPair(stub.last('register'), 'register');
    await expect(signingIn).resolves.toMatchObject({ user: { id: 'u_9' } });
  });

  // Checked by `npm run typecheck`: each @ts-expect-error fails it when the call type-checks.
  it('types signIn by the documents: names, a TypedDocumentNode’s variables, and its next step', () => {
    type Register = { register: { accessToken: string; refreshToken: string } | { challenge: string } };
    const TYPED: TypedDocumentNode<Register, { email: string; password: string }> = gql(REGISTER);
    const auth = createTokenAuth({ uri: '/graphql', fetch: vi.fn(), signIns: { register: TYPED, code: REQUEST_CODE } });
    const call = () => auth.signIn('register', { email: 'a', password: 'b' });
    expectTypeOf(call).returns.resolves.toHaveProperty('next');
    // @ts-expect-error: a door's own variables
    void (() => auth.signIn('register', { email: 1 }));
    // @ts-expect-error: not a door
    void (() => auth.signIn('nope', {}));
    // A string document takes any variables.
    void (() => auth.signIn('code', { anything: true }));
    auth.dispose();
  });
});
