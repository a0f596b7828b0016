import { createMemoryTokenStore } from './createMemoryTokenStore';
import { withSeam } from './openStore';
import type { TokenPair, TokenStore } from './TokenStore';

/** The pair a page starts from in token-handler mode: no access token, and the cookie that may hold a session. */
const COOKIE: TokenPair = { accessToken: '', refreshToken: 'cookie' };

/**
 * The store of `createTokenHandlerTransport()`: the access token in memory, and the tabs of the origin told
 * of each login and logout through a `BroadcastChannel`, so that they follow at once. Each session starts from
 * the cookie: its first refresh asks the handler whether there is a session.
 */
export function openTokenHandlerStore(name: string): TokenStore {
  return withSeam(createMemoryTokenStore(), (host) => {
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
    if (channel) {
      channel.onmessage = ({ data }: MessageEvent<string | null>) =>
        host.adopt(data ? { accessToken: data, refreshToken: data } : null);
    }
    return {
      load: () => COOKIE,
      async save(pair, wanted) {
        if (!wanted || wanted()) channel?.postMessage(pair?.accessToken ?? null);
      },
      async rotate(pair, renew, wanted) {
        const next = await renew(pair);
        return wanted() ? { pair: next } : { pair: null, orphan: next };
      },
      close: () => channel?.close(),
    };
  });
}
