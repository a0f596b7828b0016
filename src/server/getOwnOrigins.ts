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
  if (options.origin !== undefined) return typeof options.origin === 'string' ? [options.origin] : [...options.origin];
  const { headers } = request;
  const own = [url.origin];
  const host = headers.get('host');
  if (host) own.push(`${url.protocol}//${host}`);
  if (options.trustProxy) {
    // The first value is the client-facing one, when proxies append theirs.
    const first = (name: string) => headers.get(name)?.split(',')[0]?.trim();
    const forwardedHost = first('x-forwarded-host') ?? host;
    const proto = first('x-forwarded-proto') ?? url.protocol.slice(0, -1);
    if (forwardedHost) own.push(`${proto}://${forwardedHost}`);
  }
  return own;
}
