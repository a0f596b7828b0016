import { CONTROL_ROUTES } from '../controlRoutes';
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

/** The lines `serve` prints once listening: where, who can sign in, the control routes, and how to stop. */
export function formatServeBanner({ url, wsUrl, users, options }: ServeBannerInput): string {
  const origin = new URL(url).origin;
  const { accessTokenTtl, refreshTokenTtl, cors } = options;
  const credentials = users.map((user) => `${user.email} / ${user.password}`);
  const width = Math.max(...credentials.map((text) => text.length));
  const routes = CONTROL_ROUTES.map((route) => `${route.method.padEnd(4)} ${origin}/control/${route.name}`);
  const routeWidth = Math.max(...routes.map((text) => text.length));
  return [
    'apollo-link-token-pair dev server: for development only (keys in memory, sessions lost on restart)',
    '',
    `  GraphQL    ${url}`,
    `  WebSocket  ${wsUrl || '(none: install the optional peers ws and graphql-ws)'}`,
    `  Tokens     access ${duration(accessTokenTtl)}, refresh ${duration(refreshTokenTtl)}`,
    `  CORS       ${cors}`,
    '',
    'Users (email / password, role):',
    ...users.map((user, i) => `  ${credentials[i]!.padEnd(width)}  ${user.role}`),
    '',
    'Control routes:',
    ...CONTROL_ROUTES.map((route, i) => `  ${routes[i]!.padEnd(routeWidth)}  ${route.summary}`),
    '',
    'Ctrl+C to stop.',
  ].join('\n');
}

// 900 → "15 min", 2592000 → "30 days", 90 → "90 s".
function duration(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? '1 day' : `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
