import { jwtDecode } from 'jwt-decode';
import { AuthRejectedError, isRefusal } from '../index';
import { graphQLErrorCode } from '../shared/graphQLErrorCode';
import { speaksOfAuth } from '../shared/speaksOfAuth';
import { checkSignInDocuments } from './checkSignInDocuments';
import type { DoctorCheck } from './DoctorCheck';
import { maskToken } from './maskToken';
import { describeErrors, postGraphQL, type GraphQLAnswer } from './postGraphQL';

export type { DoctorCheck } from './DoctorCheck';

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** The GraphQL endpoint. */
  uri: string;
  email: string;
  password: string;
  /** ms each request may take. @defaultValue `10_000` */
  timeout?: number;
  /**
   * Documents for a server whose operations have other names, aliased to the contract's (as for
   * `createGraphQLTransport`), and `me` for the query that returns the signed-in user.
   */
  documents?: { login?: string; refresh?: string; logout?: string; me?: string };
  /**
   * The app's sign-in doors (`signIns` of `createTokenAuth` or `createTokenHandler`), as strings: each is checked
   * before any request (one top-level field; whether it can answer a pair), and never sent.
   */
  signIns?: Readonly<Record<string, string>>;
  /** @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
}

/** What {@link runDoctor} found. */
export interface DoctorReport {
  readonly uri: string;
  readonly checks: readonly DoctorCheck[];
  /** What the package will do with this server, and the options to set. */
  readonly advice: readonly string[];
  /** Requests sent; never more than {@link MAX_REQUESTS}. */
  readonly requests: number;
  /** Whether every session the doctor opened was logged out again. */
  readonly loggedOut: boolean;
  /** `true` when no check failed. */
  readonly ok: boolean;
}

/** The most requests one run sends, cleanup included. */
export const MAX_REQUESTS = 18;
// An access token that lives this long or less is waited out to see TOKEN_EXPIRED.
const SHORT_LIFE = 30;

const DOCUMENTS = {
  login:
    'mutation($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){accessToken refreshToken user{id email role}}}',
  refresh: 'mutation($token:String!){refreshToken(token:$token){accessToken refreshToken}}',
  logout: 'mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}',
  me: '{me{id email}}',
};

interface Pair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/**
 * Checks a server against the contract with a bounded number of requests: it signs in once, exercises the token
 * pair (refresh, reuse of a spent refresh token, logout) and a wrong password, logs out what it opened, and says
 * what `apollo-link-token-pair` will do with this server. Tokens appear in the report masked only.
 *
 * @example
 * ```ts
 * const report = await runDoctor({ uri: 'http://127.0.0.1:4000/graphql', email: 'me@example.com', password: process.env.PASSWORD! });
 * console.log(formatReport(report));
 * ```
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const run = startRun(options);
  run.checks.push(...checkSignInDocuments(options.signIns));
  const first = await signIn(run);
  if (first) {
    const lifetime = checkAccessToken(run, first);
    await checkAccessUse(run, first);
    await checkRefresh(run, first);
    await checkLogout(run);
    await checkWrongPassword(run);
    await checkTokenExpired(run, lifetime);
  }
  return finish(run);
}

/** One run of the doctor: what it found so far, the sessions it holds open, and its bounded requests. */
interface DoctorRun {
  readonly uri: string;
  readonly password: string;
  readonly checks: DoctorCheck[];
  readonly advice: string[];
  /** Pairs whose session may still be live: logged out at the end. */
  readonly open: Set<Pair>;
  /** Requests sent so far, the ones the budget refused included. */
  requests(): number;
  check(id: string, title: string, status: DoctorCheck['status'], detail: string): void;
  login(password: string): Promise<GraphQLAnswer>;
  refresh(pair: Pair): Promise<GraphQLAnswer>;
  me(token: string): Promise<GraphQLAnswer>;
  logout(pair: Pair): Promise<GraphQLAnswer>;
}

function startRun(options: DoctorOptions): DoctorRun {
  const { uri, timeout = 10_000 } = options;
  const documents = { ...DOCUMENTS, ...options.documents };
  const checks: DoctorCheck[] = [];
  let requests = 0;
  const post = (query: string, variables: Record<string, unknown>, token?: string): Promise<GraphQLAnswer> => {
    if (++requests > MAX_REQUESTS)
      return Promise.resolve({ errors: [], failure: 'was not sent: the request budget is spent' });
    return postGraphQL(uri, query, variables, { token, timeout, fetch: options.fetch });
  };
  return {
    uri,
    password: options.password,
    checks,
    advice: [],
    open: new Set(),
    requests: () => requests,
    check: (id, title, status, detail) => void checks.push({ id, title, status, detail }),
    login: (password) => post(documents.login, { email: options.email, password }),
    refresh: (pair) => post(documents.refresh, { token: pair.refreshToken }),
    me: (token) => post(documents.me, {}, token),
    logout: (pair) => post(documents.logout, { refreshToken: pair.refreshToken }, pair.accessToken),
  };
}

function pairOf(answer: GraphQLAnswer, field: string): Pair | undefined {
  const value = answer.data?.[field] as Partial<Pair> | undefined;
  return typeof value?.accessToken === 'string' && typeof value.refreshToken === 'string' ? (value as Pair) : undefined;
}

function refusedBy(answer: GraphQLAnswer): boolean {
  return !answer.failure && !answer.data?.['refreshToken'] && answer.errors.length > 0;
}

/** 1. Sign in: the pair every later step starts from, or nothing (and nothing else can be checked). */
async function signIn(run: DoctorRun): Promise<Pair | undefined> {
  const signedIn = await run.login(run.password);
  const first = pairOf(signedIn, 'loginWithEmailPassword');
  if (!first) {
    run.check(
      'login',
      'Sign in',
      'fail',
      `loginWithEmailPassword answered ${describeErrors(signedIn)}: nothing else can be checked.`,
    );
    return undefined;
  }
  run.open.add(first);
  const user = (signedIn.data?.['loginWithEmailPassword'] as { user?: Record<string, unknown> }).user;
  const missing = ['id', 'email', 'role'].filter((key) => user?.[key] == null);
  run.check(
    'login',
    'Login answer',
    missing.length ? 'warn' : 'ok',
    missing.length
      ? `The answer has the pair, but its user lacks ${missing.join(', ')}: the package reads them from the token's claims instead.`
      : `accessToken ${maskToken(first.accessToken)}, refreshToken ${maskToken(first.refreshToken)} and user { id, email, role }.`,
  );
  return first;
}

/** 2. The access token: a JWT, its exp in seconds, its lifetime, the clocks, the role. Answers its lifetime. */
function checkAccessToken(run: DoctorRun, first: Pair): number | undefined {
  const received = Date.now();
  let claims: Record<string, unknown>;
  try {
    claims = jwtDecode<Record<string, unknown>>(first.accessToken);
    run.check('jwt', 'Access token is a JWT', 'ok', `Its claims: ${Object.keys(claims).join(', ')}.`);
  } catch {
    run.check(
      'jwt',
      'Access token is a JWT',
      'fail',
      'It cannot be decoded as a JWT: the package cannot time the proactive refresh.',
    );
    return undefined;
  }
  checkExp(run, claims['exp']);
  const lifetime = checkLifetime(run, claims, received);
  checkRole(run, claims);
  return lifetime;
}

function checkExp(run: DoctorRun, exp: unknown): void {
  if (typeof exp !== 'number')
    run.check(
      'exp',
      'exp in seconds',
      'fail',
      'The token has no numeric exp: the package renews it only after TOKEN_EXPIRED.',
    );
  else if (exp > 1e11) {
    run.check(
      'exp',
      'exp in seconds',
      'fail',
      `exp is ${exp}: milliseconds, not the seconds JWTs use; the package would take the token to live for millennia.`,
    );
    run.advice.push(
      'Write `exp` (and `iat`) in seconds: with `exp` in milliseconds the package never refreshes before TOKEN_EXPIRED.',
    );
  } else run.check('exp', 'exp in seconds', 'ok', `exp is ${exp}.`);
}

/** The token's lifetime against the contract's, and the server's clock against this one (`received`, in ms). */
function checkLifetime(run: DoctorRun, claims: Record<string, unknown>, received: number): number | undefined {
  const exp = claims['exp'];
  const iat = claims['iat'];
  if (typeof exp !== 'number' || typeof iat !== 'number' || exp >= 1e11) {
    run.check('lifetime', 'Access token lifetime', 'not checked', 'The token lacks a numeric iat or exp in seconds.');
    return undefined;
  }
  const lifetime = exp - iat;
  const near = Math.abs(lifetime - 900) <= 90;
  run.check(
    'lifetime',
    'Access token lifetime',
    near ? 'ok' : 'warn',
    near
      ? `${lifetime} s: the contract's 15 minutes.`
      : `${lifetime} s, not the contract's 15 minutes: the package times the token from its own lifetime, so it works, but the contract says 15 minutes.`,
  );
  const skew = Math.round(received / 1000 - iat);
  run.check(
    'clock',
    'Server clock against this one',
    Math.abs(skew) <= 30 ? 'ok' : 'warn',
    Math.abs(skew) <= 30
      ? `iat is ${skew} s from the local clock.`
      : `iat is ${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} the local clock: the package times tokens from their own lifetime, so this does not matter to it; other clients may refresh at the wrong time.`,
  );
  return lifetime;
}

function checkRole(run: DoctorRun, claims: Record<string, unknown>): void {
  const role = claims['role'];
  const roleLike = Object.keys(claims).find((key) => /role/i.test(key) && key !== 'role');
  run.check(
    'role',
    'Role claim',
    typeof role === 'string' ? 'ok' : 'warn',
    typeof role === 'string'
      ? `role is "${role}".`
      : roleLike
        ? `No role claim, but ${roleLike}: set \`roleClaim: '${roleLike}'\`.`
        : 'No role claim: useAuth().user.role will be undefined; set `roleClaim` to the claim that holds it.',
  );
  if (typeof role !== 'string' && roleLike)
    run.advice.push(`Set \`roleClaim: '${roleLike}'\`: the role is in that claim.`);
}

/** 3. The token works, and garbage does not. */
async function checkAccessUse(run: DoctorRun, first: Pair): Promise<void> {
  const mine = await run.me(first.accessToken);
  run.check(
    'me',
    'me with the access token',
    mine.data?.['me'] ? 'ok' : 'fail',
    mine.data?.['me'] ? 'It answers the signed-in user.' : `It answered ${describeErrors(mine)}.`,
  );
  const garbage = await run.me('eyJhbGciOiJIUzI1NiJ9.e30.garbage-signature');
  run.check(
    'garbage',
    'me with a garbage token',
    garbage.data?.['me'] ? 'fail' : 'ok',
    garbage.data?.['me']
      ? 'The server accepted a token with a forged signature.'
      : `Refused: ${describeErrors(garbage)}.`,
  );
}

/** 4. Refresh, then the spent refresh token once more. */
async function checkRefresh(run: DoctorRun, first: Pair): Promise<void> {
  const renewed = await run.refresh(first);
  const second = pairOf(renewed, 'refreshToken');
  if (!second) {
    run.check('refresh', 'refreshToken answers a new pair', 'fail', `It answered ${describeErrors(renewed)}.`);
    return;
  }
  run.open.delete(first);
  run.open.add(second);
  run.check(
    'refresh',
    'refreshToken answers a new pair',
    second.refreshToken !== first.refreshToken ? 'ok' : 'warn',
    second.refreshToken !== first.refreshToken
      ? `A new pair: ${maskToken(second.refreshToken)}.`
      : 'It answered the same refresh token: rotation is what makes a refresh token single use.',
  );
  const reused = await run.refresh(first);
  const again = pairOf(reused, 'refreshToken');
  if (again) {
    run.open.add(again);
    run.check(
      'single-use',
      'The spent refresh token is refused',
      'fail',
      'The server renewed a refresh token it had already renewed: refresh tokens are not single use.',
    );
    run.advice.push(
      'Refresh tokens are not single use: the package stays safe (it never sends one twice), but your server does not follow the contract, and a stolen refresh token stays usable.',
    );
  } else if (!refusedBy(reused)) {
    run.check('single-use', 'The spent refresh token is refused', 'warn', `No verdict: ${describeErrors(reused)}.`);
  } else {
    adviseOnReuse(run, reused);
    await checkReuseDetection(run, second);
  }
}

/** What the package makes of the server's refusal of a spent refresh token. */
function adviseOnReuse(run: DoctorRun, reused: GraphQLAnswer): void {
  const rejection = new AuthRejectedError(reused.errors[0]?.message ?? '', 'refreshToken', reused.errors);
  const verdict = isRefusal(rejection, 'refresh');
  run.check('single-use', 'The spent refresh token is refused', 'ok', `Refused: ${describeErrors(reused)}.`);
  run.advice.push(
    verdict === 'maybe'
      ? `Your server answers a spent refresh token with ${rejection.code} ("${rejection.message}"), words that do not say the token was refused: the package cannot tell that from a crash, so a session it refuses ends after 3 refreshes answered so (about 10 s with the default 5 s refreshFloor). To end it at once, give refusals a code of their own (UNAUTHENTICATED, say) or set \`isRefusal\`.`
      : verdict
        ? `Your server refuses a spent refresh token with ${rejection.code ? `the code ${rejection.code}` : 'no code'} ("${rejection.message}"): the package ends such a session at once${rejection.code === 'INTERNAL_SERVER_ERROR' ? ', since those words speak of a refused token' : ''}, with those words in \`ended.message\`.`
        : `Your server answers a spent refresh token with ${rejection.code}, a code the package takes as an outage: such a session is never ended. Set \`isRefusal\`.`,
  );
}

/** Reuse detection: does presenting the spent token end the session it belonged to (whose newest pair is `second`)? */
async function checkReuseDetection(run: DoctorRun, second: Pair): Promise<void> {
  const after = await run.refresh(second);
  const third = pairOf(after, 'refreshToken');
  if (third) {
    run.open.delete(second);
    run.open.add(third);
    run.check(
      'reuse-detection',
      'Reuse of a spent refresh token ends the session',
      'warn',
      'No: the session went on after its spent refresh token was presented. The contract does not ask for it; OAuth advises it for refresh token rotation (RFC 9700, section 4.14).',
    );
    return;
  }
  if (refusedBy(after)) run.open.delete(second);
  run.check(
    'reuse-detection',
    'Reuse of a spent refresh token ends the session',
    refusedBy(after) ? 'ok' : 'warn',
    refusedBy(after)
      ? `Yes: the newest refresh token was refused next (${describeErrors(after)}).`
      : `Not known: ${describeErrors(after)}.`,
  );
}

/** 5. Logout kills both tokens: on a session of its own when reuse detection ended the first. */
async function checkLogout(run: DoctorRun): Promise<void> {
  if (!run.open.size) {
    const again = pairOf(await run.login(run.password), 'loginWithEmailPassword');
    if (again) run.open.add(again);
  }
  const latest = [...run.open].at(-1);
  if (!latest) {
    run.check('logout', 'logout kills both tokens', 'not checked', 'No session could be had to log out.');
    return;
  }
  const out = await run.logout(latest);
  if (out.failure || !out.data?.['logout']) {
    run.check('logout', 'logout kills both tokens', 'fail', `logout answered ${describeErrors(out)}.`);
    return;
  }
  run.open.delete(latest);
  const access = await run.me(latest.accessToken);
  const refreshed = await run.refresh(latest);
  const renewedAfter = pairOf(refreshed, 'refreshToken');
  if (renewedAfter) run.open.add(renewedAfter);
  const accessAlive = !!access.data?.['me'];
  run.check(
    'logout',
    'logout kills both tokens',
    accessAlive || renewedAfter ? 'fail' : 'ok',
    accessAlive
      ? 'The access token still worked after logout: the contract says both tokens die at once.'
      : renewedAfter
        ? 'The refresh token still worked after logout.'
        : `Both refused after logout: ${describeErrors(access)}; ${describeErrors(refreshed)}.`,
  );
  if (accessAlive)
    run.advice.push(
      'logout leaves the access token alive: the package forgets it at once, but anyone who copied it can use it until it expires.',
    );
  else checkDeadAccess(run, access);
}

/** 6. A wrong password. */
async function checkWrongPassword(run: DoctorRun): Promise<void> {
  const wrong = await run.login(`${run.password}\u0000wrong`);
  const wrongPair = pairOf(wrong, 'loginWithEmailPassword');
  if (wrongPair) run.open.add(wrongPair);
  run.check(
    'wrong-password',
    'A wrong password is refused',
    wrongPair ? 'fail' : wrong.failure ? 'warn' : 'ok',
    wrongPair ? 'The server signed in with a wrong password.' : `Refused: ${describeErrors(wrong)}.`,
  );
  if (!wrongPair && !wrong.failure && wrong.errors[0]?.message) {
    run.advice.push(
      `A wrong password shows as the server's words ("${wrong.errors[0].message}"): login() rejects with an AuthRejectedError that carries them.`,
    );
  }
}

/** 7. TOKEN_EXPIRED, where tokens are short-lived enough to wait one out. */
async function checkTokenExpired(run: DoctorRun, lifetime: number | undefined): Promise<void> {
  if (lifetime === undefined || lifetime > SHORT_LIFE || lifetime <= 0) {
    run.check(
      'token-expired',
      'An expired access token gets TOKEN_EXPIRED',
      'not checked',
      `The access token lives ${lifetime ?? 'an unknown number of'} s. By hand: sign in, wait past exp, send { me { id } } with that token, and look for extensions.code "TOKEN_EXPIRED".`,
    );
    return;
  }
  const fresh = pairOf(await run.login(run.password), 'loginWithEmailPassword');
  if (!fresh) return;
  run.open.add(fresh);
  await new Promise((resolve) => setTimeout(resolve, (lifetime + 1.5) * 1000));
  const expired = await run.me(fresh.accessToken);
  const code = expired.errors.find((error) => error.extensions?.['code'] === 'TOKEN_EXPIRED');
  run.check(
    'token-expired',
    'An expired access token gets TOKEN_EXPIRED',
    code ? 'ok' : 'fail',
    code
      ? `After ${lifetime} s: ${describeErrors(expired)}.`
      : `After ${lifetime} s it answered ${describeErrors(expired)}: the package refreshes and replays only on TOKEN_EXPIRED (or isTokenExpiredError).`,
  );
}

// How the server refuses the access token of a session that ended (here, by logout: a revocation looks the
// same to the client), and what the package's default isUnauthenticatedError makes of it.
function checkDeadAccess(run: DoctorRun, answer: GraphQLAnswer): void {
  const title = 'A dead session is noticed';
  const said = describeErrors(answer);
  const codes = answer.errors.map(graphQLErrorCode);
  const words = answer.errors.map((error) => error.message ?? '').join('\n');
  if (answer.failure || (answer.status ?? 0) >= 500) {
    return run.check(
      'dead-access',
      title,
      'warn',
      `The access token of a logged-out session got ${said}: an outage to the package, not a verdict. A revoked session then ends only at its next refresh.`,
    );
  }
  if (answer.status === 401 || codes.includes('UNAUTHENTICATED') || codes.includes('TOKEN_EXPIRED')) {
    return run.check(
      'dead-access',
      title,
      'ok',
      `The access token of a logged-out session is refused with ${said}: the package refreshes once, the refusal of that refresh ends the session at once.`,
    );
  }
  if (codes.some((code) => code === '' || code === 'INTERNAL_SERVER_ERROR')) {
    if (speaksOfAuth(words)) {
      return run.check(
        'dead-access',
        title,
        'ok',
        `The access token of a logged-out session is refused with ${said}: those words speak of a refused session, so the package checks it with a refresh at once and ends it within a round trip.`,
      );
    }
    run.advice.push(
      `Your server refuses the access token of a dead session with ${said}: words the package cannot tell from a business error, so it checks such errors with a refresh at most once a minute. To end a revoked session at once, give that refusal the code UNAUTHENTICATED, or set \`isUnauthenticatedError\` to return true for it.`,
    );
    return run.check(
      'dead-access',
      title,
      'warn',
      `Refused with ${said}: a revoked session is noticed within a minute, not at once.`,
    );
  }
  run.advice.push(
    `Your server refuses the access token of a dead session with ${said}: the package passes that code on as an ordinary error, so a revoked session shows signed in until its next refresh (up to 12.5 minutes). Set \`isUnauthenticatedError\` to return true for it: \`(error) => isUnauthenticatedError(error) || (CombinedGraphQLErrors.is(error) && error.errors.some((each) => each.extensions?.code === '${codes.find(Boolean)}'))\`.`,
  );
  run.check(
    'dead-access',
    title,
    'fail',
    `Refused with ${said}, a code the package takes for an ordinary error: a revoked session would go unnoticed until its next refresh.`,
  );
}

/** Logs out the sessions the run opened, and reports. */
async function finish(run: DoctorRun): Promise<DoctorReport> {
  for (const pair of [...run.open]) {
    const out = await run.logout(pair);
    // Refused: the pair was dead already (its session ended with another of its pairs).
    if (out.data?.['logout'] || (!out.failure && out.errors.length)) run.open.delete(pair);
  }
  if (run.open.size)
    run.advice.push(
      `${run.open.size} session(s) the doctor opened could not be logged out: they end when their refresh tokens expire.`,
    );
  return {
    uri: run.uri,
    checks: run.checks,
    advice: run.advice,
    requests: Math.min(run.requests(), MAX_REQUESTS),
    loggedOut: run.open.size === 0,
    ok: !run.checks.some((each) => each.status === 'fail'),
  };
}
