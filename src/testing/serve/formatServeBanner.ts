import { CONTROL_ROUTES } from '../controlRoutes';
import type { SignInCode } from '../createOneTimeCodes';
import type { SeedUser } from '../users';
import type { ServeOptions } from './parseServeArgs';

/** What {@link formatServeBanner} prints: the listening server and what it was started with. */
export interface ServeBannerInput {
  /** The GraphQL URL over HTTP. */
  readonly url: string;
  /** The graphql-ws URL, '' when the server has none. */
  readonly wsUrl: string;
  readonly users: readonly SeedUser[];
  readonly options: Pick<ServeOptions, 'accessTokenTtl' | 'refreshTokenTtl' | 'cors'>;
}

// The mutations beyond the contract, and what each is for.
const SIGN_IN_DOORS: ReadonlyArray<readonly [string, string]> = [
  ['register(email, password)', 'a new account, role MEMBER'],
  ['requestSignInCode(email), signInWithCode(email, code)', 'a one-time code by e-mail, 10 min'],
  ['signIn(email, password), verifySecondFactor(challenge, code)', 'a second factor, for an account with one'],
  ['signInWithIdToken(idToken)', 'an ID token of the test identity provider'],
];

/**
 * The lines `serve` prints once listening: where, who can sign in and through which doors, the control routes, and
 * how to stop.
 */
export function formatServeBanner({ url, wsUrl, users, options }: ServeBannerInput): string {
  const origin = new URL(url).origin;
  const { accessTokenTtl, refreshTokenTtl, cors } = options;
  const credentials = users.map((user) => `${user.email} / ${user.password}`);
  const width = Math.max(...credentials.map((text) => text.length));
  const routes = CONTROL_ROUTES.map((route) => `${route.method.padEnd(4)} ${origin}/control/${route.name}`);
  const routeWidth = Math.max(...routes.map((text) => text.length));
  const doorWidth = Math.max(...SIGN_IN_DOORS.map(([door]) => door.length));
  return [
    'apollo-link-token-pair dev server: for development only (keys in memory, sessions lost on restart)',
    '',
    `  GraphQL    ${url}`,
    `  WebSocket  ${wsUrl || '(none: install the optional peers ws and graphql-ws)'}`,
    `  Tokens     access ${duration(accessTokenTtl)}, refresh ${duration(refreshTokenTtl)}`,
    `  CORS       ${cors}`,
    '',
    'Users (email / password, role):',
    ...users.map(
      (user, i) => `  ${credentials[i]!.padEnd(width)}  ${user.role}${user.secondFactor ? ' (second factor)' : ''}`,
    ),
    '',
    'Sign-in doors beyond the contract (the codes they send by e-mail are printed here):',
    ...SIGN_IN_DOORS.map(([door, summary]) => `  ${door.padEnd(doorWidth)}  ${summary}`),
    '',
    'Control routes:',
    ...CONTROL_ROUTES.map((route, i) => `  ${routes[i]!.padEnd(routeWidth)}  ${route.summary}`),
    '',
    'Ctrl+C to stop.',
  ].join('\n');
}

/** The line `serve` prints when a sign-in door sends a code: `sign-in code for ada@example.test: 042917`. */
export function formatSignInCode({ kind, email, code }: SignInCode): string {
  return `${kind} code for ${email}: ${code}`;
}

// 900 → "15 min", 2592000 → "30 days", 90 → "90 s".
function duration(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? '1 day' : `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
