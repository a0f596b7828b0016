import { assertNotLocalStorage } from './assertNotLocalStorage';
import { delegateTo } from './delegateTo';
import { OWNED, rotateWith, withSeam } from './openStore';
import { storeIO } from './storeIO';
import type { TokenStorage, TokenStore } from './TokenStore';

// The session that owns each storage: two would each spend the refresh token the other holds.
const owners = new WeakSet<TokenStorage>();

/**
 * Makes a {@link TokenStore} of a storage of the app's own: secure storage (Keychain, Expo SecureStore, Electron
 * `safeStorage`, a server's secret store), synchronous or asynchronous.
 *
 * @remarks
 * The session then calls it as an asynchronous store needs: each call bounded by the session's `storeTimeout`
 * (a store that never answers fails the call, nothing waits for good), writes one at a time in the order the
 * session changed (it never ends with an older pair than the newest), and the pair handed to `set` with the
 * `version` of its format. A pair stored by an older version is migrated as it is read; a value whose format
 * this version does not know (a newer version's, junk) is left in the store as it is and reported to `onError`,
 * and the session starts signed out. One live session owns the store; to
 * share it between sessions, use {@link shareTokenStore} instead.
 *
 * @throws An `Error` when `storage` is `localStorage`: the spec forbids it for the refresh token.
 *
 * @example React Native, with react-native-keychain 10:
 * ```ts
 * import * as Keychain from 'react-native-keychain';
 *
 * const store = createTokenStore({
 *   async get() {
 *     const entry = await Keychain.getGenericPassword({ service: 'tokens' });
 *     return entry ? (JSON.parse(entry.password) as TokenPair) : null;
 *   },
 *   async set(pair) {
 *     await Keychain.setGenericPassword('pair', JSON.stringify(pair), { service: 'tokens' });
 *   },
 *   async clear() {
 *     await Keychain.resetGenericPassword({ service: 'tokens' });
 *   },
 * });
 * ```
 */
export function createTokenStore(storage: TokenStorage): TokenStore {
  assertNotLocalStorage(
    storage,
    'createTokenStore() must not be given localStorage: the spec forbids it for the refresh token.',
  );
  return withSeam(delegateTo(storage), (host) => {
    if (owners.has(storage)) throw new Error(OWNED);
    owners.add(storage);
    const io = storeIO(storage, host);
    return { load: io.read, save: io.write, rotate: rotateWith(io.write), close: () => owners.delete(storage) };
  });
}
