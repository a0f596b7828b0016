/**
 * Where the peer address of a request that `toNodeHandler` made is kept: a Fetch `Request` has none. Shared by
 * every copy of the module in the process, as the handler may come from another copy than `toNodeHandler`.
 */
import { processWide } from './processWide';

export const peerAddresses = processWide('peer-addresses', () => new WeakMap<Request, string>());

/** The client's address as the handler can know it, and the `X-Forwarded-For` chain to send upstream. */
export interface ClientAddress {
  /** The client's address: the one the trusted proxy appended, else the peer's; `undefined` when unknown. */
  readonly address: string | undefined;
  /** `X-Forwarded-For` for upstream calls: the trusted proxy's chain, then the peer; `undefined` when empty. */
  readonly forwardedFor: string | undefined;
}

/**
 * The client's address of `request`. Behind a trusted proxy, `X-Forwarded-For` is the chain it sent (it appends
 * the address it saw to what came before, so the last entry is the one it vouches for), and the peer (the proxy
 * itself) is appended to it. Without one, a browser's `X-Forwarded-For` is ignored: only the peer counts.
 */
export function getClientAddress(request: Request, { trustProxy }: { readonly trustProxy: boolean }): ClientAddress {
  const peer = peerAddresses.get(request);
  const chain = trustProxy
    ? (request.headers.get('x-forwarded-for') ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    : [];
  const forwardedFor = [...chain, peer].filter(Boolean).join(', ') || undefined;
  return { address: chain.at(-1) ?? peer, forwardedFor };
}
