import { AuthRejectedError, rejectionMessage } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { unreachable } from './unreachable';
import { graphQLErrorCode } from '../../shared/graphQLErrorCode';
import { type AuthCall, isRefusal as isRefusalByDefault } from './isRefusal';
import { print } from 'graphql';
import type { SignInDocuments } from './SignInDocuments';
import type { SignInAnswer, TokenAuthTransport, TransportAnswer } from './TokenAuthTransport';

const PAIR = 'accessToken refreshToken';

/** Options of {@link createGraphQLTransport}. */
export interface GraphQLTransportOptions {
  /** The GraphQL endpoint that serves the auth mutations. */
  uri: string;
  /**
   * The `fetch` used for auth mutations.
   * @defaultValue `globalThis.fetch`, read at call time
   */
  fetch?: typeof fetch;
  /** Extra headers sent with the auth mutations. */
  headers?: Record<string, string>;
  /**
   * Documents for a server whose mutations have other names or arguments. Each aliases its root field and result
   * fields to the spec's names (`loginWithEmailPassword`, `refreshToken`, `logout`; `accessToken`, `refreshToken`,
   * `user`), and takes the spec's variables it declares: `$email` and `$password`; `$token`, the refresh token;
   * `$refreshToken`, the logout's. A refresh that takes the token from a header (`refreshTokenIn: 'header'`) or
   * from the server's cookie declares no `$token`, a logout authenticated by the access token (always sent as
   * `Authorization: Bearer`) no `$refreshToken`: a variable the document does not declare is not sent. A logout
   * may answer anything (`true`, `{ ok }`); a refresh answer without a `refreshToken` keeps the session's.
   * @example A refresh document for a server whose mutation is named renewSession:
   * ```graphql
   * mutation ($token: String!) {
   *   refreshToken: renewSession(refresh: $token) { accessToken: jwt refreshToken: renewal }
   * }
   * ```
   * @example A refresh that reads the refresh token from the Authorization header, and a logout by the access
   * token, with `refreshTokenIn: 'header'`:
   * ```graphql
   * mutation { refreshToken: refreshSession { accessToken refreshToken } }
   * mutation { logout: signOut { ok } }
   * ```
   */
  documents?: { login?: string; refresh?: string; logout?: string };
  /**
   * Where the refresh goes with the refresh token: in the `$token` variable, or as `Authorization: Bearer <refresh
   * token>` (a server whose refresh mutation reads it from the header, as its REST endpoints do).
   * @defaultValue `'variables'`
   */
  refreshTokenIn?: 'variables' | 'header';
  /**
   * The app's own sign-in mutations, by name, that `auth.signIn(name, variables)` runs: sign-up, a one-time code,
   * a second factor, a social ID token. Each selects one top-level field: a pair (`accessToken`, `refreshToken`,
   * optionally `user`, aliased to these names where the server names them otherwise; a union answer works the
   * same way) begins the session, any other answer is the `next` step. `npx apollo-link-token-pair doctor` checks
   * each document before any request.
   * @example
   * ```ts
   * const transport = createGraphQLTransport({
   *   uri: '/graphql',
   *   signIns: {
   *     register: 'mutation ($email: String!, $password: String!) { register(email: $email, password: $password) { accessToken refreshToken user { id email role } } }',
   *   },
   * });
   * ```
   */
  signIns?: SignInDocuments;
  /**
   * Decides whether the GraphQL errors a call was answered with are a refusal (`true`), the server failing
   * (`false`) or either (`'maybe'`). See {@link isRefusal}.
   * @defaultValue {@link isRefusal}
   */
  isRefusal?: (error: AuthRejectedError, call: AuthCall) => boolean | 'maybe';
}

// Statuses of a server (or a gateway in front of it) failing, not of a verdict on the credentials or token:
// ending a session over them would log users out during an outage.
const SERVER_FAILURE = /^(408|429|5\d\d)$/;

/** A GraphQL answer's body, as far as a transport reads it. */
interface GraphQLBody {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: AuthRejectedError['errors'];
}

/** One of the spec's mutations, or a sign-in door's, as posted. */
interface Mutation {
  /** The mutation's field (its key in `data`), whose value is the answer; a door's name. */
  readonly field: string;
  /** A sign-in door's: the answer is the one top-level field its document selects, whatever its name or alias. */
  readonly door?: boolean;
  /** What the call is, for `isRefusal`: a sign-in door is a login. */
  readonly call: AuthCall;
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>>;
  /**
   * The token sent as `Authorization: Bearer`: a logout's access token (which the server may want), a refresh's
   * refresh token with `refreshTokenIn: 'header'`.
   */
  readonly token?: string | undefined;
}

/**
 * The default {@link TokenAuthTransport}: the spec's `loginWithEmailPassword`, `refreshToken(token:)` and
 * `logout(refreshToken:)`, posted with `fetch` outside the Apollo link chain, so they never meet the replay
 * logic.
 *
 * @remarks
 * An answer with GraphQL errors (or HTTP 401 or 403 without any) is an {@link AuthRejectedError} when
 * `isRefusal` says it is a verdict, an uncertain one when it says `'maybe'`, and an {@link AuthRequestError}
 * otherwise. A network failure, HTTP 5xx, 408 or 429, a body that is not JSON or an answer without the field is
 * an {@link AuthRequestError}: transient, the session is kept.
 */
export function createGraphQLTransport(options: GraphQLTransportOptions): TokenAuthTransport {
  const { documents = {} } = options;
  const refresh = documents.refresh ?? `mutation($token:String!){refreshToken(token:$token){${PAIR}}}`;
  const logout = documents.logout ?? 'mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}';
  const doors = new Map(
    Object.entries(options.signIns ?? {}).map(([name, doc]) => [name, typeof doc === 'string' ? doc : print(doc)]),
  );
  const post = async (mutation: Mutation, signal: AbortSignal): Promise<TransportAnswer> => {
    const { field, call, query, variables, token, door } = mutation;
    let status: number | undefined;
    let body: GraphQLBody | null = null;
    const fail = (why: string, cause?: unknown) => new AuthRequestError(`${field} ${why}.`, field, status, cause);
    let text: string;
    try {
      const response = await (options.fetch ?? fetch)(options.uri, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...options.headers,
          ...(token && { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({ query, variables }),
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (cause) {
      throw fail(`failed on the network: ${unreachable(options.uri, cause)}`, cause);
    }
    // A refusal (401, 403) needs no body to be a verdict.
    const refused = status === 401 || status === 403;
    try {
      body = JSON.parse(text) as GraphQLBody | null;
    } catch (cause) {
      if (!refused) throw fail(`answered HTTP ${status} with a body that is not JSON`, cause);
    }
    const errors = body?.errors ?? [];
    // Any answer will do here (a logout may answer a scalar, a pair may come with warnings); the session checks
    // the shape of a pair.
    const keys = door ? Object.keys(body?.data ?? {}).filter((key) => key !== '__typename') : [field];
    if (keys.length > 1) throw fail(`answered ${keys.join(', ')}: a sign-in document selects one top-level field`);
    const data = body?.data?.[keys[0]!];
    if (data != null && status < 300) return data as TransportAnswer;
    const code = graphQLErrorCode(errors[0]);
    // A logout needs no access token (the refresh token names the session): one refused as expired, even where
    // the server's context refuses it for every operation (HTTP 500 or 401), is sent again without it.
    if (
      call === 'logout' &&
      token &&
      (status === 401 || errors.some((error) => error.extensions?.code === 'TOKEN_EXPIRED'))
    ) {
      return post({ ...mutation, token: undefined }, signal);
    }
    if (SERVER_FAILURE.test(`${status}`) || (!errors.length && !refused)) {
      throw fail(
        status < 300
          ? `answered without data${door ? '' : `.${field}`}`
          : `failed with HTTP ${status}${code ? ` (${code})` : ''}`,
      );
    }
    // The app's own document does not fit the schema: no verdict on the user, and the words say where to look.
    if (door && /^GRAPHQL_(PARSE|VALIDATION)_FAILED$/.test(code)) {
      throw fail(`was refused as a document (${errors[0]?.message}): check signIns.${field}`);
    }
    // A door's refusal is a refused sign-in, in plain words when the server sent none.
    const said = rejectionMessage(call === 'login' ? call : field, errors[0]?.message, status);
    const rejection = new AuthRejectedError(said, field, errors);
    const verdict = (options.isRefusal ?? isRefusalByDefault)(rejection, call);
    if (verdict === 'maybe') throw new AuthRejectedError(rejection.message, field, errors, { uncertain: true });
    if (!verdict) throw fail(`failed: ${rejection.message}`, rejection);
    throw rejection;
  };
  return {
    signIns: [...doors.keys()],
    async signIn(name, variables, signal): Promise<SignInAnswer> {
      const query = doors.get(name)!;
      const answer: unknown = await post({ field: name, door: true, call: 'login', query, variables }, signal);
      // A pair when the answer holds an access token; anything else is the next step, as the server sent it.
      return (answer as { accessToken?: unknown }).accessToken != null ? (answer as TransportAnswer) : { next: answer };
    },
    login: (email, password, signal) =>
      post(
        {
          field: 'loginWithEmailPassword',
          call: 'login',
          query:
            documents.login ??
            `mutation($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){${PAIR} user{id email role}}}`,
          variables: { email, password },
        },
        signal,
      ),
    refresh: (token, signal) =>
      post(
        {
          field: 'refreshToken',
          call: 'refresh',
          query: refresh,
          // A variable the document does not declare is not sent (one whose name starts so would be, harmlessly).
          variables: refresh.includes('$token') ? { token } : {},
          token: options.refreshTokenIn === 'header' ? token : undefined,
        },
        signal,
      ),
    logout: (pair, signal) =>
      post(
        {
          field: 'logout',
          call: 'logout',
          query: logout,
          variables: logout.includes('$refreshToken') ? { refreshToken: pair.refreshToken } : {},
          token: pair.accessToken,
        },
        signal,
      ),
  };
}
