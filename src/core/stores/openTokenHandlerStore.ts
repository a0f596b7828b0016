import { createMemoryTokenStore } from './createMemoryTokenStore';
import { withSeam } from './openStore';
import type { TokenPair, TokenStore } from './TokenStore';

/** The pair a page starts from in token-handler mode: no access token, and the cookie that may hold a session. */
const COOKIE: TokenPair = { accessToken: '', refreshToken: 'cookie' };

/**
 * The store of `createTokenHandlerTransport()`: the access token in memory, and the tabs of the origin told
 * of each login, logout and rotation through a `BroadcastChannel`, so that they follow at once. Each session
 * starts from the cookie: its first refresh asks the handler whether there is a session.
 */
export function openTokenHandlerStore(name: string): TokenStore {
  return withSeam(createMemoryTokenStore(), (host) => {
    // Whether this tab holds a session: only then does it follow another tab's rotation.
    let held = false;
    const open = (channelName: string, take: (token: string | null) => unknown) => {
      if (typeof BroadcastChannel !== 'function') return;
      const channel = new BroadcastChannel(channelName);
      channel.onmessage = ({ data }: MessageEvent<string | null>) => take(data);
      return channel;
    };
    const follow = (token: string | null) => {
      held = !!token;
      host.adopt(token ? { accessToken: token, refreshToken: token } : null);
    };
    const channel = open(name, follow);
    // A rotation's token, on a channel of its own that a tab signed out (or of an earlier version) does not
    // follow: a tab whose operations carry the newest token names it when the API refuses it, so the handler
    // rotates once per refusal instead of handing a tab that lagged a pair the API refuses already.
    const rotations = open(`${name} rotations`, (token) => held && token && follow(token));
    return {
      load: () => COOKIE,
      async save(pair, wanted) {
        if (wanted && !wanted()) return;
        held = !!pair;
        channel?.postMessage(pair?.accessToken ?? null);
      },
      async rotate(pair, renew, wanted) {
        const next = await renew(pair);
        if (!wanted()) return { pair: null, orphan: next };
        held = true;
        rotations?.postMessage(next.accessToken);
        return { pair: next };
      },
      close: () => (channel?.close(), rotations?.close()),
    };
  });
}
