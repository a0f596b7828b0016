import { AuthRejectedError, type SignInAnswer } from '../index';
import { type BeginCookieSessionOptions, beginCookieSession } from './beginCookieSession';
import { getClientAddress } from './clientAddress';
import type { LoginThrottleGate } from './createLoginThrottleGate';
import { pairOf } from './createRotator';
import { errorResponse, jsonResponse as json } from './jsonResponse';
import type { LoginAttempt } from './LoginThrottle';
import { type Outcome, refusal, UNAVAILABLE, unavailable } from './Outcome';
import type { HandlerConfig } from './readHandlerOptions';

/** What {@link signInUpstream} needs. */
export interface SignInUpstreamOptions extends BeginCookieSessionOptions, Pick<HandlerConfig, 'trustProxy'> {
  /** The login throttle, which every route that signs in shares. */
  readonly gate: LoginThrottleGate;
}

/** One sign-in, as a route hands it over. */
export interface SignInCall {
  /** What the throttle is told of the attempt; the client's address and the request are added here. */
  readonly attempt: Pick<LoginAttempt, 'email' | 'door'>;
  /** The upstream call: the login, or a door's mutation. */
  readonly call: (signal: AbortSignal) => Promise<SignInAnswer>;
  /** The words of a refusal the upstream said nothing in. @defaultValue the transport's plain words */
  readonly refused?: string;
}

/**
 * Runs one sign-in, `/login`'s or a door's, and answers the page: the throttle asked first (429, nothing sent
 * upstream), then the upstream. A refusal is 401 with the upstream's code and words (recorded as refused); no
 * verdict is 503; a step that begins no session is 200 `{ next }`, with no cookie; a pair begins the session
 * ({@link beginCookieSession}) and answers `{ accessToken, user, age: 0 }`. No answer carries the refresh token.
 */
export async function signInUpstream(
  options: SignInUpstreamOptions,
  request: Request,
  signIn: SignInCall,
): Promise<Response> {
  const { gate, upstream, sessions, trustProxy } = options;
  const { call, refused } = signIn;
  const attempt: LoginAttempt = {
    ...signIn.attempt,
    address: getClientAddress(request, { trustProxy }).address,
    request,
  };
  // A refusal of the handler's own (no verdict, a broken pair, a pair too large): no cookie is set.
  const refuse = (outcome: Outcome) => sessions.answer({ outcome, cookies: [] });
  const throttled = await gate.check(attempt);
  if (throttled) return throttled;
  let answer: SignInAnswer;
  try {
    answer = await call(upstream.signal());
  } catch (error) {
    if (!AuthRejectedError.is(error)) return refuse(unavailable(error));
    await gate.record(attempt, 'refused');
    // Apollo Server puts INTERNAL_SERVER_ERROR on every refusal thrown without a code: not the page's business.
    const code = error.code && error.code !== 'INTERNAL_SERVER_ERROR' ? error.code : 'INVALID_CREDENTIALS';
    return errorResponse(401, code, error.errors[0]?.message || (refused ?? error.message));
  }
  // A step that begins no session (a code sent, a second factor required) goes to the page as the upstream sent
  // it; one that holds a refresh token is a broken pair, and never leaves the server.
  if ('next' in answer && (answer.next as { refreshToken?: unknown } | null)?.refreshToken == null)
    return json(200, { next: answer.next });
  const pair = pairOf(answer);
  if (!pair) {
    const what = attempt.door === undefined ? 'the login' : `the sign-in door ${attempt.door}'s`;
    if (!(answer as { accessToken?: unknown }).accessToken)
      return refuse(unavailable(new Error(`${what} answer carried no pair`)));
    // Not an outage: a service that keeps the refresh token to itself (its own cookie) answers so every time.
    const message = `No refresh token in ${what} answer, only an access token: the token handler keeps the refresh token in its cookie, so it cannot sit in front of an auth service whose answers carry none.`;
    options.report(new Error(message));
    return refuse(refusal(UNAVAILABLE, 'NO_REFRESH_TOKEN', message));
  }
  await gate.record(attempt, 'accepted');
  const begun = await beginCookieSession(options, request, { pair, user: (answer as { user?: unknown }).user });
  if ('outcome' in begun) return refuse(begun.outcome);
  const { session, cookies } = begun;
  return json(200, { accessToken: session.accessToken, user: session.user ?? null, age: 0 }, cookies);
}
