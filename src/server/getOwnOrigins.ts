import { firstValue } from './firstValue';

/** What {@link getOwnOrigins} needs to know of the handler's host. */
export interface OwnOriginOptions {
  /** The origin(s) the app is served from, when the app says so: then nothing is taken from the request. */
  readonly origin?: string | readonly string[];
  /** Whether a proxy in front sets `X-Forwarded-Host` and `X-Forwarded-Proto` (and overwrites the browser's). */
  readonly trustProxy?: boolean;
}

/**
 * The origins a request to the handler counts as coming from its own pages: the `origin` option when given;
 * otherwise the request's URL, the `Host` header the browser sent (a framework may rewrite the URL's host:
 * Next.js gives `localhost` to a page opened at `127.0.0.1`), and, behind a trusted proxy, `X-Forwarded-Host`
 * with `X-Forwarded-Proto`.
 *
 * @remarks
 * A page of another origin cannot set `Host`, and cannot send `X-Forwarded-*` without a CORS preflight that the
 * handler refuses, so none of these lets it in.
 */
export function getOwnOrigins(request: Request, url: URL, options: OwnOriginOptions): string[] {
  if (options.origin !== undefined) return [options.origin].flat();
  const { headers } = request;
  const own = [url.origin];
  const host = headers.get('host');
  if (host) own.push(`${url.protocol}//${host}`);
  if (options.trustProxy) {
    const forwardedHost = firstValue(headers.get('x-forwarded-host')) ?? host;
    const proto = firstValue(headers.get('x-forwarded-proto')) ?? url.protocol.slice(0, -1);
    if (forwardedHost) own.push(`${proto}://${forwardedHost}`);
  }
  return own;
}
