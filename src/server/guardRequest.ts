import { getOwnOrigins, type OwnOriginOptions } from './getOwnOrigins';
import { errorResponse, jsonResponse } from './jsonResponse';
import { PAYLOAD_TOO_LARGE, readBody } from './readBody';

/** The request header every route requires: a page can only send it with `fetch`, which a CORS preflight guards. */
export const TOKEN_HANDLER_HEADER = 'x-token-handler';

/** The routes of a token handler. */
export type TokenHandlerRoute = 'login' | 'sign-in' | 'refresh' | 'logout';

/** What {@link createRequestGuard} needs to know. */
export interface RequestGuardOptions extends OwnOriginOptions {
  readonly basePath: string;
  readonly allowedOrigins?: readonly string[];
  /** Where a refused origin is told, once per message. */
  readonly report: (error: Error) => void;
}

/** A request the guard let through: its route and its body, a JSON object. */
export interface GuardedRequest {
  readonly route: TokenHandlerRoute;
  readonly body: Record<string, unknown>;
}

const ROUTES = new Set<string>(['login', 'sign-in', 'refresh', 'logout']);

/**
 * Creates the request guard of a token handler: what a request must be before any route reads its cookie. A
 * `POST` to `{basePath}/login`, `/sign-in`, `/refresh` or `/logout`, with the `x-token-handler` header, from the handler's
 * own origin or an allowed one (a refused origin is named, with the one expected and the options to set, and
 * logged once), with a JSON object of at most 16 kB as its body, not read whole when larger. Anything else is
 * answered here: 404, 405, 403, 413 or 400; a CORS preflight from an allowed origin gets its 204.
 */
export function createRequestGuard(options: RequestGuardOptions): {
  check(request: Request): Promise<GuardedRequest | Response>;
  /** Lets an allowed origin other than the handler's own read `response`, refusals included. */
  share(request: Request, response: Response): Response;
} {
  const { basePath, report } = options;
  const allowed = new Set(options.allowedOrigins);
  const logged = new Set<string>();

  // Origins that may call: the handler's own, and those allowed. A missing Origin is refused: browsers send it
  // with every POST, and only a forged request lacks it.
  function refuse(request: Request, url: URL): string | undefined {
    const origin = request.headers.get('origin');
    if (!request.headers.get(TOKEN_HANDLER_HEADER)) return `The ${TOKEN_HANDLER_HEADER} header is required.`;
    const own = getOwnOrigins(request, url, options);
    if (origin && (own.includes(origin) || allowed.has(origin))) return;
    const message =
      `The origin ${origin ?? '(none)'} is not allowed: this handler takes its own origin to be ${own.join(' or ')}. ` +
      'Set `origin` (where the app is served), `allowedOrigins` (other origins), or `trustProxy` (behind a proxy that sets X-Forwarded-Host) in createTokenHandler.';
    if (!logged.has(message) && logged.size < 100) {
      logged.add(message);
      report(new Error(message));
    }
    return message;
  }

  return {
    async check(request) {
      const url = new URL(request.url);
      const route = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length + 1) : '';
      if (!ROUTES.has(route)) return errorResponse(404, 'NOT_FOUND', `No route ${url.pathname}.`);
      if (request.method === 'OPTIONS' && allowed.has(request.headers.get('origin')!)) {
        return new Response(null, {
          status: 204,
          headers: {
            'access-control-allow-methods': 'POST',
            'access-control-allow-headers': `content-type, ${TOKEN_HANDLER_HEADER}`,
            'access-control-max-age': '600',
          },
        });
      }
      if (request.method !== 'POST') {
        return jsonResponse(
          405,
          { error: { code: 'METHOD_NOT_ALLOWED', message: `${url.pathname} accepts POST.` } },
          [],
          { allow: 'POST' },
        );
      }
      const forbidden = refuse(request, url);
      if (forbidden) return errorResponse(403, 'FORBIDDEN', forbidden);
      const text = await readBody(request);
      if (text === undefined) return jsonResponse(413, { error: PAYLOAD_TOO_LARGE });
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        // Not JSON: refused below, as is any body that is not an object.
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return errorResponse(400, 'BAD_REQUEST', 'The body must be a JSON object of at most 16 kB.');
      }
      return { route: route as TokenHandlerRoute, body: body as Record<string, unknown> };
    },
    share(request, response) {
      const origin = request.headers.get('origin');
      if (origin && allowed.has(origin)) {
        response.headers.set('access-control-allow-origin', origin);
        response.headers.set('access-control-allow-credentials', 'true');
        response.headers.append('vary', 'origin');
      }
      return response;
    },
  };
}
