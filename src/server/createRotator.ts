import { AuthRejectedError, type TokenAuthTransport } from '../index';
// A refresh token answered with an uncertain refusal (Apollo Server's INTERNAL_SERVER_ERROR) this many times in a
// row is taken as refused, as the page's own session does.
import { REFUSALS } from '../internal';
import {
  type CookieSession,
  fromCookieSession,
  type HandlerSession,
  type SessionPair,
  toCookieSession,
} from './HandlerSession';
import { type KeptOutcome, type Outcome, refusal, unavailable } from './Outcome';
import type { RotationCache } from './RotationCache';
import { createCookieSealer, type Secrets } from './sealCookie';

/** What {@link createRotator} needs. */
export interface RotatorOptions {
  readonly cache: RotationCache;
  readonly secret: Secrets;
  /** How long an upstream call may take, in ms: a claim lasts a second longer. */
  readonly timeout: number;
  /** How long a renewal's answer is kept for the requests that present the token it spent, in ms. */
  readonly graceTime: number;
  /** The refresh token's life, in ms, from a renewal. */
  readonly sessionLife: number;
  /** How long a refusal of `session` is kept, in ms. */
  readonly refusalTime: (session: HandlerSession) => number;
  readonly now: () => number;
  readonly report: (error: unknown) => void;
}

/** Rotates refresh tokens once each, across requests and instances. See {@link createRotator}. */
export interface Rotator {
  /** The rotation of `session`'s refresh token through `upstream`: one per token however many ask, here or on another instance. */
  rotate(session: HandlerSession, upstream: TokenAuthTransport, signal: AbortSignal): Promise<Outcome>;
  /** The outcome kept for the refresh token of `key`, followed to the newest session it led to. */
  newest(key: string): Promise<KeptOutcome | undefined>;
  /** Keeps `outcome` for `key` for `ttl` ms; `false` when the cache failed (reported). */
  keep(key: string, outcome: KeptOutcome, ttl: number): Promise<boolean>;
  /** Resolves once a rotation of `key` in flight here is over. */
  settled(key: string): Promise<unknown>;
  /**
   * Notes that the API refused the access token of the pair whose refresh token is `key`, so that no request,
   * here or on another instance, is handed it while its rotation runs (or, for `graceTime`, after one that got
   * no verdict).
   */
  refuse(key: string): Promise<void>;
  /** Whether the access token of the pair of `key` was refused: noted so, or its rotation is running here. */
  refused(key: string): Promise<boolean>;
}

// How often an outcome the cache did not take is put again, in ms.
const RETRY_KEEP = 20;

/**
 * Creates the rotator of a token handler: a claim in the rotation cache makes one request, on one instance,
 * spend a refresh token; its outcome, sealed, is kept for `graceTime` so that the others that present the token
 * receive the same new pair (or the same refusal) instead of spending it again.
 */
export function createRotator(options: RotatorOptions): Rotator {
  const { cache, timeout, graceTime, sessionLife, refusalTime, now, report } = options;
  // A claim outlasts the upstream call it covers by a second.
  const claimTime = timeout + 1000;
  const outcomes = createCookieSealer(options.secret, 'rotation');
  // Rotations of this instance in flight, by key: the requests that present one refresh token join one.
  const running = new Map<string, Promise<Outcome>>();
  // Outcomes the cache did not take (Redis down or paused mid-rotation), by key: they answer this instance's
  // requests, and are put again until the cache takes them, so that the other instances learn of the rotation
  // rather than spend its token again once Redis is back.
  const unkept = new Map<string, { outcome: KeptOutcome; until: number }>();

  async function rotateShared(
    key: string,
    session: HandlerSession,
    upstream: TokenAuthTransport,
    signal: AbortSignal,
  ): Promise<Outcome> {
    try {
      // Another instance renewing it answers with its outcome; one whose refresh failed lets go of its claim
      // without one, and this request takes it over rather than wait out the bound.
      const until = now() + claimTime;
      for (;;) {
        const kept = await newest(key);
        if (kept) return kept;
        if (await cache.claim(key, claimTime)) break;
        if (now() >= until)
          return unavailable(new Error('another instance renewing this session did not finish in time'));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // A rotation that finished between the look-up and the claim kept its outcome before letting go of its claim.
      const raced = await newest(key);
      if (raced) {
        await cache.release(key).catch(report);
        return raced;
      }
      // A token sent before and not let go: the instance that sent it stopped (killed, crashed) before it kept a
      // verdict, or that verdict's grace is over. The upstream may have spent it; sent again, it would be reuse.
      if (await cache.get(`${key}:sent`)) {
        const lost = refusal(
          401,
          'SESSION_LOST',
          'The session could not be renewed: its refresh token was sent before, and the answer is lost. Sign in again.',
        );
        return settle(key, lost, refusalTime(session));
      }
      await cache.put(`${key}:sent`, '1', Math.max(refusalTime(session), timeout + 5000));
    } catch (error) {
      // Without the cache, nothing can tell whether another instance is spending this token right now.
      report(error);
      return unavailable(error);
    }
    let answer: unknown;
    try {
      answer = await upstream.refresh(session.refreshToken, signal);
    } catch (error) {
      // An uncertain refusal is no verdict yet: the cookie counts it, and the third in a row is one.
      const strikes = (session.uncertainRefusals ?? 0) + 1;
      if (!AuthRejectedError.is(error) || (error.uncertain && strikes < REFUSALS)) {
        await cache
          .put(`${key}:sent`, '', 1)
          .then(() => cache.release(key))
          .catch(report);
        return {
          ...unavailable(error),
          ...(AuthRejectedError.is(error) && { keep: { ...session, uncertainRefusals: strikes } }),
        };
      }
    }
    // Refused, or answered without an access token: either way the token is spent and the session over. An answer
    // without a refresh token keeps the one sent (a server that does not rotate them).
    const pair = pairOf(answer, session.refreshToken);
    // A new pair renews the session: the user stays, the count of uncertain refusals goes.
    const outcome: KeptOutcome = pair
      ? { session: { ...pair, user: session.user, receivedAt: now(), refreshExpiresAt: now() + sessionLife } }
      : refusal(401, 'SESSION_REVOKED', 'The session was ended by the auth service: sign in again.');
    return settle(key, outcome, pair ? graceTime : refusalTime(session));
  }

  // The verdict of the rotation of `key`: kept for `ttl`, then the claim let go. Once kept, the outcome answers; a
  // claim that outlived it (a graceTime shorter than the claim) would make later requests wait for a rotation that
  // is over.
  async function settle(key: string, outcome: KeptOutcome, ttl: number): Promise<KeptOutcome> {
    if (await keep(key, outcome, ttl)) await cache.release(key).catch(report);
    return outcome;
  }

  async function keep(key: string, outcome: KeptOutcome, ttl: number): Promise<boolean> {
    const sealed = await outcomes.seal('session' in outcome ? { session: toCookieSession(outcome.session) } : outcome);
    const put = (ms: number) => cache.put(key, sealed, ms).then(() => void unkept.delete(key));
    try {
      await put(ttl);
      return true;
    } catch (error) {
      report(error);
      const until = now() + ttl;
      unkept.set(key, { outcome, until });
      // Put again until the cache takes it, its time is up, or a later outcome of `key` replaced it here.
      const retry = () =>
        setTimeout(() => {
          if (unkept.get(key)?.until === until && now() < until) put(until - now()).catch(retry);
        }, RETRY_KEEP).unref?.();
      retry();
      return false;
    }
  }

  async function kept(key: string): Promise<KeptOutcome | undefined> {
    const mine = unkept.get(key);
    if (mine && mine.until > now()) return mine.outcome;
    const sealed = await cache.get(key);
    const opened = sealed ? (await outcomes.open<KeptOutcome<CookieSession>>(sealed))?.value : undefined;
    return opened && 'session' in opened ? { session: fromCookieSession(opened.session) } : opened;
  }

  // The outcome kept for `key`, followed through later rotations (a tab that raced two renewals gets the
  // newest) and to a logout that ended the chain.
  async function newest(key: string): Promise<KeptOutcome | undefined> {
    let outcome: KeptOutcome | undefined;
    for (let hops = 0; hops < 8; hops++) {
      const next = await kept(key);
      if (!next) break;
      outcome = next;
      if (!('session' in next)) break;
      key = await keyOf(next.session);
    }
    return outcome;
  }

  return {
    async rotate(session, upstream, signal) {
      const key = await keyOf(session);
      let rotation = running.get(key);
      if (!rotation) {
        rotation = rotateShared(key, session, upstream, signal).finally(() => running.delete(key));
        running.set(key, rotation);
      }
      return rotation;
    },
    newest,
    keep,
    settled: (key) => running.get(key) ?? Promise.resolve(),
    // The note is no secret (a key is a digest). A cache that fails it fails the rotation that follows, which
    // reports it; one that cannot say hands out the pair, as it did before the note.
    refuse: async (key) =>
      void (
        running.has(key) || (await cache.put(`${key}:refused`, '1', Math.max(graceTime, claimTime)).catch(() => {}))
      ),
    refused: async (key) =>
      running.has(key) ||
      cache.get(`${key}:refused`).then(
        (note) => note !== null,
        () => false,
      ),
  };
}

/**
 * The cache key of a pair: the SHA-256 of its refresh token, in hex, or of both its tokens when the refresh token
 * is one an earlier pair had too (`refreshTokenKept`), so that each rotation of a token that does not rotate is one
 * of its own. The token itself is never a key.
 */
export async function keyOf(pair: SessionPair): Promise<string> {
  const named = pair.refreshTokenKept ? `${pair.refreshToken} ${pair.accessToken}` : pair.refreshToken;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(named)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The pair of an upstream answer, as the cookie keeps it; `undefined` when it carries none. `sent`: the refresh
 * token of a refresh, which an answer without one keeps (RFC 6749 §6: the server need not issue a new one).
 */
export function pairOf(answer: unknown, sent?: string): SessionPair | undefined {
  const { accessToken, refreshToken } = (answer ?? {}) as Record<string, unknown>;
  const kept = typeof refreshToken === 'string' && refreshToken ? refreshToken : sent;
  if (typeof accessToken === 'string' && accessToken && kept)
    return { refreshToken: kept, accessToken, ...(kept === sent && { refreshTokenKept: true }) };
}
