import { type AnyVariables, createGraphQLTransport, type SignInAnswer, type TokenAuthTransport } from '../index';
import type { SignInDoor } from '../internal';
import { getClientAddress } from './clientAddress';
import type { HandlerConfig } from './readHandlerOptions';

/** What {@link createUpstream} needs. */
export type UpstreamOptions = Pick<
  HandlerConfig,
  'uri' | 'transport' | 'fetch' | 'headers' | 'documents' | 'signIns' | 'trustProxy' | 'timeout'
>;

/** A sign-in door as the upstream runs it; or, when it has none of that name, the names of those it has. */
export type UpstreamDoor =
  | { readonly signIn: (variables: AnyVariables, signal: AbortSignal) => Promise<SignInAnswer> }
  | { readonly doors: readonly string[] };

/** The upstream auth service, as a token handler calls it. See {@link createUpstream}. */
export interface Upstream {
  /** The upstream as called for `request`. */
  transport(request: Pick<Request, 'headers'>): TokenAuthTransport;
  /** The sign-in door `name` as called for `request`. */
  door(request: Pick<Request, 'headers'>, name: string): UpstreamDoor;
  /** The signal of one upstream call: it aborts after `timeout`. */
  signal(): AbortSignal;
}

/**
 * Creates the upstream of a token handler: the app's `upstream` transport (a function of it called with the
 * request's context), or the GraphQL service's mutations at `uri`, called with the client's address in
 * `X-Forwarded-For` (when the request is a Fetch `Request`), so that the service's own throttling sees the user
 * and not the handler.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  // The app's own transport (or the function of a request that makes it), when it has one.
  const { transport: own, signIns, trustProxy } = options;
  const forwardedFor = (request: Pick<Request, 'headers'>) =>
    request instanceof Request ? getClientAddress(request, { trustProxy }).forwardedFor : undefined;
  // Only the door a sign-in runs: a transport is made per request, and each door it holds is parsed again.
  const graphQL = (request: Pick<Request, 'headers'>, door?: SignInDoor) => {
    const address = forwardedFor(request);
    return createGraphQLTransport({
      // Set when there is no transport of the app's: else the handler is misconfigured, and calls nobody.
      uri: options.uri!,
      fetch: options.fetch,
      headers: address ? { ...options.headers, 'x-forwarded-for': address } : options.headers,
      documents: options.documents,
      ...(door && { signIns: { [door.name]: door.query } }),
    });
  };
  const transport = (request: Pick<Request, 'headers'>) =>
    typeof own === 'function' ? own({ forwardedFor: forwardedFor(request), request }) : (own ?? graphQL(request));

  return {
    transport,
    door(request, name) {
      if (!own) {
        const door = signIns.get(name);
        if (!door) return { doors: [...signIns.keys()] };
        return { signIn: (variables, signal) => graphQL(request, door).signIn!(name, variables, signal) };
      }
      // The app's transport: its doors are those its `signIns` name, or every name when only its service knows them.
      const called = transport(request);
      if (!called.signIn || (called.signIns && !called.signIns.includes(name))) return { doors: called.signIns ?? [] };
      return { signIn: (variables, signal) => called.signIn!(name, variables, signal) };
    },
    signal: () => AbortSignal.timeout(options.timeout),
  };
}
