import { graphql, type ExecutionResult } from 'graphql';
import { systemClock } from '../index';
import { createSubscriptionEndpoint } from './attachSubscriptions';
import { onlyAuthErrors } from './authError';
import { CONTROL_ROUTES, type ControlRoute } from './controlRoutes';
import { createAuthService, type RequestContext } from './createAuthService';
import { createIdTokenIssuer, readIdTokenOptions } from './createIdTokenIssuer';
import { createOneTimeCodes } from './createOneTimeCodes';
import { createTokenSigner } from './createTokenSigner';
import { createPauses, noFaults, takeFailure } from './faults';
import { parseGraphqlBody, topLevelFields } from './graphqlRequest';
import { schema } from './schema';
import { serveHttp, type HandlerAnswer, type HttpListener } from './serveHttp';
import { clearStats, emptyStats, pushBounded, statsSummary } from './stats';
import type { TestAuthServer, TestAuthServerOptions } from './TestAuthServer';
import { seedUsers } from './users';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
};

// Relative URLs (`createTokenAuth({ uri: '/graphql', fetch: server.fetch })`) resolve against this origin.
const ANY_ORIGIN = 'http://test-auth-server.invalid';

/**
 * Creates an in-memory auth server that implements the token service spec: `loginWithEmailPassword`,
 * `refreshToken` (single use, a reused token revokes its session), `logout` (revokes both tokens; a spent refresh token is refused and revokes nothing, the strictest reading), `me`,
 * `TOKEN_EXPIRED` at the access token's `exp`; plus sample authenticated fields (`ping(n)`, `clubs`), a sample
 * authenticated mutation (`renameClub(id, name)`: renames a club the user may see, for every user; refused with
 * `TOKEN_EXPIRED` or `UNAUTHENTICATED` as the queries are, and then it does not run; `stats.renames` counts the ones
 * that ran), a public `catalogue` query that needs no token, a `ticker` subscription, fault switches and counters.
 *
 * Beyond the contract, the sign-in doors that real APIs have, each of which opens a session as
 * `loginWithEmailPassword` does: `register(email, password)` (a new account, role `MEMBER`), a one-time code by
 * e-mail (`requestSignInCode(email)`, then `signInWithCode(email, code)`: single use, 10 minutes of the server's
 * clock, 5 wrong tries), a second factor (`signIn(email, password)` answers the union `SignInResult`: the pair, or
 * `SecondFactorRequired { challenge }` and a code, for `verifySecondFactor(challenge, code)`), and an ID token of a
 * test identity provider (`signInWithIdToken(idToken)`, from {@link TestAuthServer.signIdToken}). The codes
 * "sent by e-mail" are read with {@link TestAuthServer.codes}.
 *
 * @remarks
 * The Fetch handler (`server.fetch`) runs anywhere WebCrypto does: Node, a browser under MSW, a worker. Only
 * `listen()` needs Node. Access tokens carry `sub`, `email`, `role`, `sid`, `jti`, `typ`, `iat`, `exp` (and a
 * custom role's `clubPermissions`/`orgPermissions`); errors carry `extensions.code`: `TOKEN_EXPIRED`,
 * `UNAUTHENTICATED`, `INVALID_CREDENTIALS`, `INVALID_REFRESH_TOKEN`, `BAD_REQUEST`, `NOT_FOUND` (`renameClub`); and
 * those of the sign-in doors: `SECOND_FACTOR_REQUIRED` (`loginWithEmailPassword` for an account with a second
 * factor), `INVALID_CODE`, `INVALID_CHALLENGE`, `INVALID_ID_TOKEN`, `EMAIL_TAKEN` and `BAD_USER_INPUT` (`register`).
 *
 * @example In-process, with MSW:
 * ```ts
 * import { http } from 'msw';
 * import { setupServer } from 'msw/node';
 *
 * const auth = createTestAuthServer({ users: [{ email: 'ada@example.test', password: 'pw', role: 'ADMIN' }] });
 * const msw = setupServer(http.post('https://api.example.test/graphql', ({ request }) => auth.fetch(request)));
 * msw.listen();
 * ```
 * @example Over HTTP:
 * ```ts
 * const server = createTestAuthServer({ accessTokenTtl: 60 });
 * const url = await server.listen(); // http://127.0.0.1:PORT/graphql
 * server.faults.hangRefresh = true;
 * await server.close();
 * ```
 */
export function createTestAuthServer(options: TestAuthServerOptions = {}): TestAuthServer {
  const stats = emptyStats();
  const faults = noFaults();
  const pauses = createPauses();
  const clock = options.clock ?? systemClock;
  const track = (clock as { track?: (work: PromiseLike<unknown>) => void }).track?.bind(clock);
  const authErrorStatus = options.authErrorStatus ?? 200;
  const corsOrigin = options.corsOrigin ?? '*';
  const secret =
    options.secret === undefined
      ? crypto.getRandomValues(new Uint8Array(32))
      : typeof options.secret === 'string'
        ? new TextEncoder().encode(options.secret)
        : options.secret;
  const users = seedUsers(options.users);
  const now = () => clock.now();
  const codes = createOneTimeCodes(now, options.onCode);
  const idTokens = createIdTokenIssuer(now);
  const service = createAuthService({
    signer: createTokenSigner(secret, now),
    accessTokenTtl: options.accessTokenTtl ?? 900,
    refreshTokenTtl: options.refreshTokenTtl ?? 2_592_000,
    rotate: options.rotateRefreshTokens ?? true,
    users,
    stats,
    faults,
    pauses,
    codes,
    idTokens,
  });
  const ws = createSubscriptionEndpoint({ service, tickerInterval: options.tickerInterval ?? 500, clock });
  let http: HttpListener | undefined;
  let url = '';
  let wsUrl = '';

  async function handleGraphql(request: Request, hung: () => void): Promise<HandlerAnswer> {
    const authorization = request.headers.get('authorization') ?? '';
    stats.requests += 1;
    pushBounded(stats.authorizationHeaders, authorization);

    const body = parseGraphqlBody(await request.text());
    if ('error' in body) return error(400, 'BAD_REQUEST', body.error);

    const failure = takeFailure(faults, body.requests.flatMap(topLevelFields));
    if (failure !== undefined) {
      return new Response(failure.body, {
        status: failure.status,
        headers: { 'content-type': failure.contentType ?? 'application/json' },
      });
    }

    // One context for a batch: one lost answer loses the whole HTTP response.
    const contextValue: RequestContext = { authorization, dropResponse: false, signal: request.signal, hung };
    const results: ExecutionResult[] = await Promise.all(
      body.requests.map((operation) =>
        graphql({
          schema,
          source: operation.query,
          rootValue: service.rootValue,
          contextValue,
          variableValues: operation.variables,
          operationName: operation.operationName,
        }),
      ),
    );
    if (pauses.closed || contextValue.dropResponse) return 'lost';
    for (const result of results) {
      // Counted from the response, as graphql-js keeps only the first error when sibling fields fail together.
      stats.tokenExpired += result.errors?.filter((e) => e.extensions['code'] === 'TOKEN_EXPIRED').length ?? 0;
    }
    const status = results.every((result) => onlyAuthErrors(result.errors)) ? authErrorStatus : 200;
    return json(status, body.batch ? results : results[0]);
  }

  const runs: Record<ControlRoute['name'], (request: Request) => unknown> = {
    'expire-access-tokens': expireAllAccessTokens,
    'revoke-sessions': revokeAllSessions,
    'reset-stats': () => clearStats(stats),
    stats: () => statsSummary(stats),
    codes: (request) => ({ codes: codes.issued(new URL(request.url).searchParams.get('email') ?? undefined) }),
    'id-token': async (request) => {
      const read = readIdTokenOptions(await request.json().catch(() => undefined));
      return 'error' in read ? error(400, 'BAD_REQUEST', read.error) : { idToken: await idTokens.sign(read) };
    },
  };
  const controls = new Map(CONTROL_ROUTES.map(({ name, method }) => [name as string, { method, run: runs[name] }]));

  async function handle(request: Request, hung: () => void): Promise<HandlerAnswer> {
    if (pauses.closed) return 'lost';
    const path = new URL(request.url).pathname;
    const control = /\/control\/([^/]+)$/.exec(path)?.[1];
    const route = path.endsWith('/graphql')
      ? { method: 'POST', run: undefined }
      : control !== undefined
        ? controls.get(control)
        : undefined;
    if (route === undefined) return error(404, 'NOT_FOUND', `No route for ${path}`);
    if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
    if (request.method !== route.method) {
      const response = error(405, 'METHOD_NOT_ALLOWED', `${path} accepts ${route.method}`);
      response.headers.set('allow', `${route.method}, OPTIONS`);
      return response;
    }
    try {
      if (route.run === undefined) return await handleGraphql(request, hung);
      const result = await route.run(request);
      return result instanceof Response ? result : json(200, result ?? { ok: true });
    } catch (failure) {
      return pauses.closed ? 'lost' : error(500, 'INTERNAL_SERVER_ERROR', String(failure));
    }
  }

  // A test clock waits in `advance()` for each request until it is answered, or until it hangs on purpose.
  function served(request: Request): Promise<HandlerAnswer> {
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const work = handle(request, hung).then((answer) => (answer === 'lost' ? answer : withCors(answer)));
    track?.(Promise.race([work, hanging]));
    return work;
  }

  async function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(
      typeof input === 'string' || input instanceof URL ? new URL(input, ANY_ORIGIN) : input,
      init,
    );
    const { signal } = request;
    signal.throwIfAborted();
    let abort!: () => void;
    const aborted = new Promise<never>((_, reject) => (abort = () => reject(signal.reason)));
    signal.addEventListener('abort', abort, { once: true });
    const response = await Promise.race([served(request), aborted]).finally(() =>
      signal.removeEventListener('abort', abort),
    );
    if (response === 'lost')
      throw new TypeError('fetch failed', { cause: new Error('The test server lost the answer') });
    return response;
  }

  function withCors(response: Response): Response {
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    response.headers.set('access-control-allow-origin', corsOrigin);
    if (corsOrigin !== '*') response.headers.append('vary', 'origin');
    return response;
  }

  function expireAllAccessTokens(): void {
    service.expireAllAccessTokens();
    ws.controls.expireAll();
  }

  function revokeAllSessions(): void {
    service.revokeAllSessions();
    ws.controls.revokeAll();
  }

  return {
    fetch,
    async listen(port = 0, host = '127.0.0.1') {
      if (http) throw new Error('The test server is listening already');
      let subscriptions = false;
      http = await serveHttp(served, port, host, async (server) => (subscriptions = await ws.attach(server)));
      url = `${http.origin}/graphql`;
      wsUrl = subscriptions ? url.replace(/^http/, 'ws') : '';
      return url;
    },
    get url() {
      return url;
    },
    get wsUrl() {
      return wsUrl;
    },
    async close() {
      pauses.close(new Error('The test server closed'));
      await ws.close();
      await http?.close();
    },
    stats,
    faults,
    resetStats: () => clearStats(stats),
    expireAllAccessTokens,
    revokeAllSessions,
    ws: ws.controls,
    issueTokens: service.issueTokens,
    users,
    codes: (email) => codes.issued(email),
    signIdToken: (claims) => idTokens.sign(claims),
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

function error(status: number, code: string, message: string): Response {
  return json(status, { errors: [{ message, extensions: { code } }] });
}
