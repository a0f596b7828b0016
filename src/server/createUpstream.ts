import { createGraphQLTransport, type TokenAuthTransport } from '../index';
import { getClientAddress } from './clientAddress';
import type { HandlerConfig } from './readHandlerOptions';

/** What {@link createUpstream} needs. */
export type UpstreamOptions = Pick<
  HandlerConfig,
  'uri' | 'fetch' | 'headers' | 'documents' | 'signIns' | 'trustProxy' | 'timeout'
>;

/** The upstream GraphQL service, as a token handler calls it. See {@link createUpstream}. */
export interface Upstream {
  /**
   * The upstream as called for `request`. With `signIn`, the name of a door of `signIns`, its `signIn` runs that
   * door (and only that one).
   */
  transport(request: Pick<Request, 'headers'>, options?: { readonly signIn?: string }): TokenAuthTransport;
  /** The signal of one upstream call: it aborts after `timeout`. */
  signal(): AbortSignal;
}

/**
 * Creates the upstream of a token handler: the service's mutations, called with the client's address in
 * `X-Forwarded-For` (when the request is a Fetch `Request`), so that the service's own throttling
 * sees the user and not the handler.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const { trustProxy } = options;
  return {
    transport(request, { signIn } = {}) {
      const { forwardedFor } =
        request instanceof Request ? getClientAddress(request, { trustProxy }) : { forwardedFor: undefined };
      const headers = forwardedFor ? { ...options.headers, 'x-forwarded-for': forwardedFor } : options.headers;
      // Only the door a sign-in runs: a transport is made per request, and each door it holds is parsed again.
      const door = signIn === undefined ? undefined : options.signIns.get(signIn);
      return createGraphQLTransport({
        uri: options.uri,
        fetch: options.fetch,
        headers,
        documents: options.documents,
        ...(door && { signIns: { [door.name]: door.query } }),
      });
    },
    signal: () => AbortSignal.timeout(options.timeout),
  };
}
