import { ApolloLink } from '@apollo/client';
import { ServerError } from '@apollo/client/errors';
import { Observable } from 'rxjs';
import { rejection as rejectionBody } from '../helpers/fetchStub';
import { makeJwt } from '../helpers/jwt';
import type { FakeClock } from './FakeClock';

/**
 * How the network treats one request when the schedule delivers it.
 *
 * - `ok`: the service executes it and the answer arrives.
 * - `lost`: the service executes it (a refresh rotates), then the connection drops: the client sees a network
 *   error and never learns the new pair.
 * - `netfail`: the request never reached the service (connection refused or reset before it was sent).
 * - `http502`: a proxy answers 502 with an HTML body; the service never saw the request.
 * - `reject`: the service revokes the session first (an administrator, a password change), then executes it.
 */
export type Outcome = 'ok' | 'lost' | 'netfail' | 'http502' | 'reject';

/** Auth mutations go through the model's `fetch`; operations through its terminating link. */
export type RequestKind = 'loginWithEmailPassword' | 'refreshToken' | 'logout' | 'operation';

/** A request that has left the client and waits for the schedule to deliver it. */
export interface PendingRequest {
  readonly kind: RequestKind;
  /** Which client instance sent it. */
  readonly instance: number;
  /** The refresh token a `refreshToken` or `logout` carries. */
  readonly refreshToken?: string;
  /** The operation's id, for `operation`. */
  readonly op?: number;
  /** The client gave up on it (its `refreshTimeout` aborted the fetch, or the operation was unsubscribed). */
  abandoned: boolean;
}

/** One attempt of an operation as the terminating link saw it. */
export interface Attempt {
  readonly op: number;
  readonly instance: number;
  /** The access token it carried, `undefined` when it carried no Authorization header. */
  readonly token: string | undefined;
}

/** One refresh token the service received more than once. */
export interface Resubmission {
  readonly token: string;
  readonly receptions: number;
  /** Whether an earlier submission's answer never reached the client (lost, or abandoned on timeout). */
  readonly afterLostResponse: boolean;
  /** Whether the service had already refused this token (the session was over). */
  readonly afterRejection: boolean;
}

/** Options of {@link createSpecServerModel}. */
export interface SpecServerModelOptions {
  readonly clock: FakeClock;
  /** How far the service's clock is ahead of the client's, in ms. */
  readonly skewMs?: number;
  /** How `TOKEN_EXPIRED` reaches the client: a GraphQL result (HTTP 200) or an HTTP 401 with a GraphQL body. */
  readonly expiredAs?: 'result' | 'http401';
}

/** A user of the model service. */
export const MODEL_USERS = [
  { id: 'u_0', email: 'owner@model.test', password: 'pw0', role: 'OWNER' },
  { id: 'u_1', email: 'cashier@model.test', password: 'pw1', role: 'Cashier' },
] as const;

/** The error the terminating link gives for an operation that failed on the network. */
export class ModelTransportError extends Error {
  override name = 'ModelTransportError';
}

interface Family {
  readonly sid: string;
  readonly user: (typeof MODEL_USERS)[number];
  current: string;
  alive: boolean;
}

interface IssuedRefresh {
  readonly sid: string;
  readonly expiresAt: number;
}

interface IssuedAccess {
  readonly sid: string;
  readonly serial: number;
  readonly expiresAt: number;
}

interface Entry extends PendingRequest {
  execute(): { status: number; body: unknown };
  answer(outcome: 'ok' | 'lost' | 'netfail' | 'http502', result?: { status: number; body: unknown }): void;
}

/** Access token lifetime in seconds, as the spec. */
const ACCESS_TTL = 900;
/** Refresh token lifetime in seconds: 30 days, as the spec. */
const REFRESH_TTL = 30 * 24 * 3600;

const rejection = (code: string, message: string) => ({ status: 200, body: rejectionBody(code, message) });

/**
 * An in-memory model of the spec's token service, with a network the schedule controls.
 *
 * @remarks
 * Tokens rotate on refresh; a refresh token is single use, and presenting a spent one revokes its whole family
 * (the pairs descending from one login), as the demo server does. Access tokens expire by the fake clock
 * (plus `skewMs`), or all at once through {@link expireAllAccessTokens}. Nothing is answered on its own: each
 * request waits in {@link pending} until the schedule delivers it with an {@link Outcome}, so the schedule
 * decides every interleaving, including answers that arrive after the client gave up.
 *
 * The model records facts (what was received, which answers were lost, what each operation carried); the
 * property test judges them.
 */
export function createSpecServerModel(options: SpecServerModelOptions) {
  const { clock } = options;
  const skewMs = options.skewMs ?? 0;
  const expiredAs = options.expiredAs ?? 'result';

  const families = new Map<string, Family>();
  const refreshTokens = new Map<string, IssuedRefresh>();
  const accessTokens = new Map<string, IssuedAccess>();
  const pending: Entry[] = [];
  let serial = 0;
  let expiredBelow = 0;

  const stats = {
    refreshReceived: 0,
    rotations: 0,
    reuseDetections: 0,
    lostResponses: 0,
    networkFailures: 0,
    http502: 0,
    revocations: 0,
    timedOutRequests: 0,
  };
  const received = new Map<string, number>();
  /** Refresh tokens at least one of whose submissions never got its answer to the client. */
  const lostTokens = new Set<string>();
  /** Refresh tokens the service refused at least once. */
  const refusedTokens = new Set<string>();
  const resubmissions: Resubmission[] = [];
  /** Refresh rejections (GraphQL errors) that reached each instance. */
  const rejectionsDelivered: number[] = [];
  /** Called after every operation attempt reaches the terminating link. */
  let onAttempt: (attempt: Attempt) => void = () => {};
  /** Called when a login answer reaches the client. */
  let onLoginDelivered: (instance: number) => void = () => {};
  /** Called when a refresh refusal reaches the client. */
  let onRefreshRefused: (instance: number) => void = () => {};

  const serverNow = () => clock.now() + skewMs;

  function issue(family: Family) {
    const n = ++serial;
    const iat = Math.floor(serverNow() / 1000);
    const accessToken = makeJwt({
      sub: family.user.id,
      email: family.user.email,
      role: family.user.role,
      sid: family.sid,
      jti: `a${n}`,
      iat,
      exp: iat + ACCESS_TTL,
    });
    const refreshToken = `r${n}.${family.sid}`;
    accessTokens.set(accessToken, { sid: family.sid, serial: n, expiresAt: (iat + ACCESS_TTL) * 1000 });
    refreshTokens.set(refreshToken, { sid: family.sid, expiresAt: serverNow() + REFRESH_TTL * 1000 });
    family.current = refreshToken;
    return { accessToken, refreshToken };
  }

  function openFamily(user: (typeof MODEL_USERS)[number]) {
    const family: Family = { sid: `s${families.size + 1}`, user, current: '', alive: true };
    families.set(family.sid, family);
    return { family, pair: issue(family) };
  }

  function login(variables: Record<string, string>) {
    const user = MODEL_USERS.find((u) => u.email === variables.email && u.password === variables.password);
    if (!user) return rejection('INVALID_CREDENTIALS', 'Invalid email or password');
    const { pair } = openFamily(user);
    return {
      status: 200,
      body: {
        data: { loginWithEmailPassword: { ...pair, user: { id: user.id, email: user.email, role: user.role } } },
      },
    };
  }

  function refresh(token: string) {
    stats.refreshReceived++;
    const count = (received.get(token) ?? 0) + 1;
    received.set(token, count);
    if (count > 1) {
      resubmissions.push({
        token,
        receptions: count,
        afterLostResponse: lostTokens.has(token),
        afterRejection: refusedTokens.has(token),
      });
    }
    const answer = rotate(token);
    if (answer.status === 200 && (answer.body as { errors?: unknown }).errors) refusedTokens.add(token);
    return answer;
  }

  function rotate(token: string) {
    const issued = refreshTokens.get(token);
    if (!issued) return rejection('INVALID_REFRESH_TOKEN', 'Invalid refresh token');
    if (serverNow() >= issued.expiresAt)
      return rejection('INVALID_REFRESH_TOKEN', 'Refresh token expired; log in again');
    const family = families.get(issued.sid)!;
    if (!family.alive) return rejection('INVALID_REFRESH_TOKEN', 'Session revoked; log in again');
    if (family.current !== token) {
      stats.reuseDetections++;
      family.alive = false;
      return rejection('INVALID_REFRESH_TOKEN', 'Refresh token already used; session revoked');
    }
    stats.rotations++;
    return { status: 200, body: { data: { refreshToken: issue(family) } } };
  }

  function logout(token: string) {
    const issued = refreshTokens.get(token);
    const family = issued && families.get(issued.sid);
    // Any token of a live family ends it, even a spent one, as the demo server does.
    if (!family?.alive) return rejection('INVALID_REFRESH_TOKEN', 'Session already revoked');
    family.alive = false;
    return { status: 200, body: { data: { logout: { success: true } } } };
  }

  function authenticate(token: string | undefined): { code: string } | null {
    if (token === undefined) return { code: 'UNAUTHENTICATED' };
    const issued = accessTokens.get(token);
    if (!issued) return { code: 'UNAUTHENTICATED' };
    if (serverNow() >= issued.expiresAt || issued.serial < expiredBelow) return { code: 'TOKEN_EXPIRED' };
    if (!families.get(issued.sid)!.alive) return { code: 'UNAUTHENTICATED' };
    return null;
  }

  function revokeAllSessions() {
    for (const family of families.values()) {
      if (family.alive) stats.revocations++;
      family.alive = false;
    }
  }

  /** The `fetch` one client instance uses for its auth mutations. */
  function fetchFor(instance: number): typeof fetch {
    rejectionsDelivered[instance] ??= 0;
    return ((_url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const { query, variables } = JSON.parse(String(init.body)) as {
          query: string;
          variables: Record<string, string>;
        };
        const kind = /\{\s*(\w+)\(/.exec(query)?.[1] as RequestKind;
        const refreshToken =
          kind === 'refreshToken' ? variables.token : kind === 'logout' ? variables.refreshToken : undefined;
        const entry: Entry = {
          kind,
          instance,
          ...(refreshToken !== undefined && { refreshToken }),
          abandoned: false,
          execute: () =>
            kind === 'refreshToken'
              ? refresh(refreshToken!)
              : kind === 'logout'
                ? logout(refreshToken!)
                : login(variables),
          answer(outcome, result) {
            if (entry.abandoned) return;
            if (outcome === 'lost' || outcome === 'netfail')
              reject(new TypeError(outcome === 'lost' ? 'socket hang up' : 'fetch failed'));
            else if (outcome === 'http502') resolve(textResponse(502, '<html><body>502 Bad Gateway</body></html>'));
            else {
              const refused = kind === 'refreshToken' && (result!.body as { errors?: unknown }).errors !== undefined;
              if (refused) rejectionsDelivered[instance]!++;
              resolve(textResponse(result!.status, JSON.stringify(result!.body)));
              if (kind === 'loginWithEmailPassword' && (result!.body as { data?: unknown }).data)
                onLoginDelivered(instance);
              if (refused) onRefreshRefused(instance);
            }
          },
        };
        init.signal?.addEventListener('abort', () => {
          if (entry.abandoned) return;
          entry.abandoned = true;
          stats.timedOutRequests++;
          if (kind === 'refreshToken') lostTokens.add(refreshToken!);
          reject(new DOMException('The operation was aborted.', 'AbortError'));
        });
        pending.push(entry);
      })) as typeof fetch;
  }

  /** The terminating link of one client instance: stands in for the GraphQL endpoint of ordinary operations. */
  function linkFor(instance: number): ApolloLink {
    return new ApolloLink(
      (operation) =>
        new Observable((observer) => {
          const op = operation.variables.op as number;
          const authorization = (operation.getContext().headers as Record<string, string> | undefined)?.authorization;
          const token = authorization?.replace(/^Bearer /, '');
          const attempt: Attempt = { op, instance, token };
          onAttempt(attempt);
          let closed = false;
          const entry: Entry = {
            kind: 'operation',
            instance,
            op,
            abandoned: false,
            execute() {
              const failure = authenticate(token);
              if (!failure) return { status: 200, body: { data: { ping: op } } };
              const message = failure.code === 'TOKEN_EXPIRED' ? 'Access token expired' : 'Not authenticated';
              return {
                status: failure.code === 'TOKEN_EXPIRED' && expiredAs === 'http401' ? 401 : 200,
                body: rejectionBody(failure.code, message),
              };
            },
            answer(outcome, result) {
              if (closed) return;
              closed = true;
              if (outcome === 'lost' || outcome === 'netfail')
                observer.error(new ModelTransportError(outcome === 'lost' ? 'socket hang up' : 'fetch failed'));
              else if (outcome === 'http502' || result!.status !== 200) {
                const status = outcome === 'http502' ? 502 : result!.status;
                const bodyText =
                  outcome === 'http502' ? '<html><body>502 Bad Gateway</body></html>' : JSON.stringify(result!.body);
                observer.error(
                  new ServerError('Response not successful', { response: textResponse(status, bodyText), bodyText }),
                );
              } else {
                observer.next(result!.body as ApolloLink.Result);
                observer.complete();
              }
            },
          };
          pending.push(entry);
          return () => {
            if (!closed) entry.abandoned = true;
            closed = true;
          };
        }),
    );
  }

  return {
    /** Requests that left a client and wait for the schedule, oldest first. */
    pending: pending as readonly PendingRequest[],
    stats,
    resubmissions,
    rejectionsDelivered: rejectionsDelivered as readonly number[],
    fetchFor,
    linkFor,
    set onAttempt(callback: (attempt: Attempt) => void) {
      onAttempt = callback;
    },
    set onLoginDelivered(callback: (instance: number) => void) {
      onLoginDelivered = callback;
    },
    set onRefreshRefused(callback: (instance: number) => void) {
      onRefreshRefused = callback;
    },

    /**
     * Takes the pending request at `index` off the network and lets `outcome` happen to it. An abandoned request
     * is still executed by the service when it got through (`ok`, `lost`, `reject`); nobody hears the answer.
     */
    deliver(index: number, outcome: Outcome): PendingRequest {
      const [entry] = pending.splice(index, 1);
      if (!entry) throw new Error(`no pending request at ${index}`);
      if (outcome === 'netfail' || outcome === 'http502') {
        if (outcome === 'netfail') stats.networkFailures++;
        else stats.http502++;
        entry.answer(outcome);
        return entry;
      }
      if (outcome === 'reject' && entry.kind !== 'operation') {
        // Revoke the session the request belongs to before it runs: wrong credentials for a login.
        const token = entry.refreshToken;
        const family = token ? families.get(refreshTokens.get(token)?.sid ?? '') : undefined;
        if (family?.alive) {
          family.alive = false;
          stats.revocations++;
        }
      }
      const result =
        outcome === 'reject' && entry.kind === 'loginWithEmailPassword'
          ? rejection('INVALID_CREDENTIALS', 'Invalid email or password')
          : entry.execute();
      if ((outcome === 'lost' || entry.abandoned) && entry.kind !== 'operation') {
        stats.lostResponses++;
        if (entry.kind === 'refreshToken') lostTokens.add(entry.refreshToken!);
      }
      entry.answer(outcome === 'lost' ? 'lost' : 'ok', result);
      return entry;
    },

    /** Opens a session as a login would, for a store filled before the clients start; `ageMs` backdates it. */
    issuePair(user: number, ageMs = 0) {
      clock.jump(-ageMs);
      const { pair } = openFamily(MODEL_USERS[user]!);
      clock.jump(ageMs);
      return pair;
    },

    /** Every access token issued so far is answered `TOKEN_EXPIRED` from now on, as the demo server's switch. */
    expireAllAccessTokens() {
      expiredBelow = serial + 1;
    },

    /** Revokes every session, as an administrator would: their tokens are refused from now on. */
    revokeAllSessions,
  };
}

/** The claims of a JWT, unverified; `undefined` when it is not one. */
export function readClaims(token: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

// Only `status` and `text()` are read by the session; a real `Response` would cost a stream per answer.
function textResponse(status: number, text: string): Response {
  return { status, ok: status >= 200 && status < 300, text: () => Promise.resolve(text) } as unknown as Response;
}
