import { isRestRefusal } from './isRestRefusal';
import type { AnyVariables } from './SignInDocuments';
import type {
  RestAnswer,
  RestEndpoint,
  RestLoginInput,
  RestLogoutInput,
  RestRefreshInput,
  RestTransportOptions,
} from './RestTransportOptions';

/** An endpoint with its defaults filled in. */
export interface RestCall<Input> {
  readonly url: string;
  readonly method: string;
  readonly body: (input: Input) => unknown;
  readonly headers: (input: Input) => Record<string, string>;
}

/** Where the answers hold what the transport reads: lists of dotted paths, the first that holds a value wins. */
export interface RestPaths {
  readonly accessToken: readonly string[];
  readonly refreshToken: readonly string[];
  readonly user: readonly string[];
  readonly message: readonly string[];
  readonly code: readonly string[];
}

/** Every option of `createRestTransport` with its default, read once. */
export interface RestConfig {
  readonly login: RestCall<RestLoginInput>;
  readonly refresh: RestCall<RestRefreshInput>;
  /** Absent: a logout is not sent. */
  readonly logout: RestCall<RestLogoutInput> | undefined;
  /** The sign-in doors, by name. */
  readonly signIns: ReadonlyMap<string, RestCall<AnyVariables>>;
  /** The server keeps the refresh token in an `HttpOnly` cookie of its own. */
  readonly cookie: boolean;
  readonly paths: RestPaths;
  readonly statuses: readonly number[];
  readonly when: (answer: RestAnswer) => boolean | 'maybe';
  readonly credentials: RequestCredentials | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof fetch | undefined;
}

const MODES = ['body', 'header', 'cookie'];
const under = (names: readonly string[]) => [...names, ...names.map((name) => `data.${name}`)];
const none = () => ({});
const bearer = (token: string | undefined) => `Bearer ${token}`;

/**
 * Reads the options of `createRestTransport` and their defaults.
 *
 * @throws An `Error` naming the option to set: `login` or `refresh` missing, a `refreshTokenIn` of another value,
 * or `refreshTokenIn: 'cookie'` without `logout` (only the server can clear its `HttpOnly` cookie).
 */
export function readRestOptions(options: RestTransportOptions): RestConfig {
  const wrong = (what: string) => new Error(`apollo-link-token-pair: createRestTransport ${what}`);
  const { refreshTokenIn = 'body', refreshTokenField = 'refreshToken', answer = {}, refusal = {} } = options;
  for (const name of ['login', 'refresh'] as const) {
    if (!options[name]) throw wrong(`needs \`${name}\`, the URL of your server's ${name} endpoint.`);
  }
  if (!MODES.includes(refreshTokenIn)) {
    throw wrong(
      `takes \`refreshTokenIn\` 'body', 'header' or 'cookie'; it was given ${JSON.stringify(refreshTokenIn)}.`,
    );
  }
  const cookie = refreshTokenIn === 'cookie';
  if (cookie && !options.logout) {
    throw wrong(
      "needs `logout` with refreshTokenIn: 'cookie': the page cannot clear the server's HttpOnly cookie, so " +
        'without a logout request a reload would sign the user back in.',
    );
  }
  const header = (options.refreshTokenHeader ?? 'authorization').toLowerCase();
  // The refresh token, where the server takes it; the logout is authenticated by the access token.
  const inBody = ({ refreshToken }: RestRefreshInput) =>
    refreshTokenIn === 'body' ? { [refreshTokenField]: refreshToken } : undefined;
  const inHeader = ({ refreshToken }: RestRefreshInput): Record<string, string> =>
    refreshTokenIn === 'header'
      ? { [header]: header === 'authorization' ? bearer(refreshToken) : `${refreshToken}` }
      : {};
  return {
    login: endpoint(options.login, (input) => ({ email: input.email, password: input.password }), none),
    refresh: endpoint(options.refresh, inBody, inHeader),
    logout: options.logout
      ? endpoint(options.logout, inBody, ({ accessToken }) => ({ authorization: bearer(accessToken) }))
      : undefined,
    signIns: new Map(
      Object.entries(options.signIns ?? {}).map(([name, given]) => [
        name,
        endpoint(given, (variables) => variables, none),
      ]),
    ),
    cookie,
    paths: {
      accessToken: answer.accessToken ? [answer.accessToken] : under(['accessToken', 'access_token', 'token']),
      refreshToken: answer.refreshToken ? [answer.refreshToken] : under(['refreshToken', 'refresh_token']),
      user: answer.user ? [answer.user] : under(['user']),
      message: refusal.message
        ? [refusal.message]
        : ['message', 'error.message', 'error_description', 'detail', 'error'],
      code: refusal.code ? [refusal.code] : ['code', 'error.code'],
    },
    statuses: refusal.statuses ?? [401, 403],
    when: refusal.when ?? isRestRefusal,
    credentials: options.credentials ?? (cookie ? 'include' : undefined),
    headers: options.headers ?? {},
    fetch: options.fetch,
  };
}

// An endpoint as given (a URL, or its parts) with the defaults of its call.
function endpoint<Input>(
  given: string | RestEndpoint<Input>,
  body: (input: Input) => unknown,
  headers: (input: Input) => Record<string, string>,
): RestCall<Input> {
  const parts: RestEndpoint<Input> = typeof given === 'string' ? { url: given } : given;
  return {
    url: parts.url,
    method: parts.method ?? 'POST',
    body: parts.body ?? body,
    headers: parts.headers ?? headers,
  };
}
