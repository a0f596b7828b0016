import { createMemoryTokenStore } from './createMemoryTokenStore';
import { withSeam } from './openStore';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStore } from './TokenStore';

/** A rotation's access token, told to the other tabs with when its answer was received (this browser's clock). */
interface TimedToken {
  readonly accessToken: string;
  readonly receivedAt?: number;
}

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
    const open = <T>(channelName: string, take: (data: T) => unknown) => {
      if (typeof BroadcastChannel !== 'function') return;
      const channel = new BroadcastChannel(channelName);
      channel.onmessage = ({ data }: MessageEvent<T>) => take(data);
      return channel;
    };
    const follow = (token: string | null, receivedAt?: number) => {
      held = !!token;
      host.adopt(token ? { accessToken: token, refreshToken: token, receivedAt } : null);
    };
    const channel = open(name, follow);
    // A rotation's token, on a channel of its own that a tab signed out (or of an earlier version) does not
    // follow: a tab whose operations carry the newest token names it when the API refuses it, so the handler
    // rotates once per refusal instead of handing a tab that lagged a pair the API refuses already. With the time
    // its answer was received: timed by its whole-second `exp`, the tabs that follow would renew it up to a second
    // early, the earliest of them setting the pace (a 10-second token renewed every 8 s, not 8.5 s). Tabs of an
    // earlier version tell theirs on the channel without the time, and follow none of these: they lag, and their
    // next refresh hands them the newest token without a rotation.
    const rotations = open<string | null>(`${name} rotations`, (token) => held && token && follow(token));
    const timed = open<TimedToken | null>(
      `${name} rotations, timed`,
      (data) => held && data && follow(data.accessToken, data.receivedAt),
    );
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
        timed?.postMessage({ accessToken: next.accessToken, receivedAt: next.receivedAt } satisfies TimedToken);
        return { pair: next };
      },
      close: () => (channel?.close(), rotations?.close(), timed?.close()),
    };
  });
}
