import type { StoreSeam } from '../stores/openStore';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenAuthTransport } from '../transports/TokenAuthTransport';

/**
 * What the session's transport and store make of it, decided once: the rules that differ between a session whose
 * service keeps it (a token handler's cookie) and one that holds its pair, and between a store that outlives the
 * process and the memory store.
 */
export interface SessionMode {
  /**
   * The session revokes the pairs it leaves behind (a session a login replaced, a pair a rotation orphaned); not
   * when the service keeps the session, which ended the replaced one itself.
   */
  readonly revokesLeftPairs: boolean;
  /**
   * A login waits for a logout in flight: the service tells which session a logout ends by its cookie, not by a
   * pair, so a logout that went out after the login would end the new session.
   */
  readonly loginWaitsForLogout: boolean;
  /**
   * A refresh already sent finishes after dispose() and stores its pair: the service has spent the old refresh
   * token, and a persistent store would keep the spent token for the next start to present as reuse. Not on the
   * memory store, which no later start reads: there the refresh is aborted, and the spent pair cleared.
   */
  readonly refreshOutlivesDispose: boolean;
  /**
   * The access token stands in for the refresh token, which the service keeps in its own cookie (a token handler's,
   * a REST server's): an answer may carry none.
   */
  readonly accessTokenStandsIn: boolean;
}

/** Decides the {@link SessionMode} of a session on `transport` and the store seam `seam`. */
export function getSessionMode(transport: TokenAuthTransport, seam: StoreSeam): SessionMode {
  const owned = !!transport.ownsSession;
  return {
    revokesLeftPairs: !owned,
    loginWaitsForLogout: owned,
    refreshOutlivesDispose: !seam.volatile,
    accessTokenStandsIn: owned,
  };
}

/**
 * The refresh token a pair keeps when the service's answer carries none: where the service keeps the session in its
 * cookie, the answer's access token, standing in for it; else the refresh token of `current`, the pair a refresh
 * renewed (a service that does not rotate it, RFC 6749 §6). A login's answer must carry one then.
 */
export function keptRefreshToken(mode: SessionMode, answer: unknown, current?: TokenPair): string | undefined {
  const { accessToken } = (answer ?? {}) as { accessToken?: unknown };
  if (!mode.accessTokenStandsIn) return current?.refreshToken;
  return typeof accessToken === 'string' ? accessToken : undefined;
}
