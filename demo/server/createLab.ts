import { authFieldOf, signsIn } from './authFieldOf.ts';
import type { AuthServer } from './createAuthServer.ts';
import type { LabCounts, LabReport, LabSession } from './LabReport.ts';

/** The lab in front of the demo server: a Fetch handler for `/graphql` and `/control/*`. */
export interface Lab {
  (request: Request): Promise<Response>;
  report(): LabReport;
}

const zero = (): LabCounts => ({
  requests: 0,
  refreshes: 0,
  refreshSuccesses: 0,
  reuseDetections: 0,
  logouts: 0,
  tokenExpired: 0,
  unavailable: 0,
});

/** The claims of a JWT, read without verifying it (the server behind verifies it); `undefined` when it is none. */
function claimsOf(token: unknown): Record<string, unknown> | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

// A sign-in refused for what the person typed: a wrong password or code.
const REFUSED_SIGN_IN = new Set(['INVALID_CREDENTIALS', 'INVALID_CODE', 'INVALID_CHALLENGE']);
const bearerOf = (request: Request) => /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
const shortId = (jti: unknown) => String(jti ?? '').slice(-6);
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
const graphqlError = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  json(status, { errors: [{ message, extensions: { code } }], data: null }, headers);

/**
 * Puts the demo's lab in front of `server`: the hard cases a person provokes by hand, for one session or for all,
 * and counters per session and in total (failed logins apart from logins). A session begun through a sign-in
 * door (a sign-up, a code, a second factor) counts as a login, and the controls act on it as on any other.
 *
 * @remarks
 * The controls, all `POST` with an optional JSON body, "mine" meaning the session of the `Authorization: Bearer`
 * token sent with them:
 * - `expire-mine` / `expire-access-tokens`: this session's (every) access token is answered `TOKEN_EXPIRED`;
 * - `revoke-mine` / `revoke-sessions`: this session (every session) is revoked, its refresh token refused;
 * - `present-spent-refresh-token`: a refresh token this session spent is presented again, as a thief would: the
 *   server detects the reuse and revokes the session;
 * - `down` `{ seconds }`: every GraphQL request is answered 503 for that long (`0`: back up);
 * - `slow-refresh` `{ ms }`: each refresh takes that long (`0`: no delay);
 * - `plain-refusals` `{ on }`: the access token of a dead session is refused as seven of the eight stacks of
 *   docs/servers.md do, "Not authenticated" with no code, instead of the demo server's `UNAUTHENTICATED`;
 * - `reset-stats`. `GET /control/lab` reports; `GET /control/stats` is the server's own counters, and
 *   `GET /control/codes` the codes its sign-in doors "sent by e-mail" (the demo's mail box).
 */
export function createLab(server: AuthServer, now: () => number = Date.now): Lab {
  let totals = { ...zero(), logins: 0, failedLogins: 0 };
  const sessions = new Map<
    string,
    LabSession & { refreshTokens: string[]; expiredBelow?: number; lastSerial: number }
  >();
  let downUntil = 0;
  let plainRefusals = false;

  const sessionOf = (token: unknown) => sessions.get(String(claimsOf(token)?.['sid']));
  function count(key: keyof LabCounts, session: LabCounts | undefined, by = 1) {
    totals[key] += by;
    if (session) session[key] += by;
  }

  // A pair the server issued: the newest refresh token of its session, the spent ones before it.
  function issued(pair: { accessToken?: unknown; refreshToken?: unknown } | undefined, email?: string) {
    const access = claimsOf(pair?.accessToken);
    if (!access || typeof pair?.refreshToken !== 'string') return;
    const sid = String(access['sid']);
    let session = sessions.get(sid);
    if (!session) {
      session = {
        sid,
        email: email ?? String(access['email']),
        status: 'active',
        accessId: '',
        refreshTokens: [],
        lastSerial: 0,
        ...zero(),
      };
      sessions.set(sid, session);
    }
    session.accessId = shortId(access['jti']);
    session.lastSerial = Number(access['n']) || 0;
    session.refreshTokens.push(pair.refreshToken);
  }

  // Calls the server behind with one of the spec's mutations, as a client would (for the controls).
  async function mutate(query: string, variables: Record<string, string>) {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: Record<string, unknown> | null;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    };
  }

  async function graphql(request: Request): Promise<Response> {
    const text = await request.text();
    const body = (() => {
      try {
        return JSON.parse(text) as { query?: string; variables?: Record<string, unknown> };
      } catch {
        return undefined;
      }
    })();
    const query = Array.isArray(body) ? '' : String(body?.query ?? '');
    const variables = (!Array.isArray(body) && body?.variables) || {};
    const field = authFieldOf(query);
    const bearer = bearerOf(request);
    const mine = field ? undefined : sessionOf(bearer);

    if (downUntil > now()) {
      count('unavailable', field === 'refreshToken' ? sessionOf(variables['token']) : mine);
      const seconds = Math.ceil((downUntil - now()) / 1000);
      return graphqlError(503, 'SERVICE_UNAVAILABLE', `The demo server is down for ${seconds} s more.`, {
        'retry-after': String(seconds),
      });
    }
    if (!field && mine) {
      count('requests', mine);
      const serial = Number(claimsOf(bearer)?.['n']);
      if (mine.expiredBelow !== undefined && serial < mine.expiredBelow) {
        count('tokenExpired', mine);
        return graphqlError(200, 'TOKEN_EXPIRED', 'Access token expired');
      }
    }

    const response = await server.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: text,
      signal: request.signal,
    });
    const answer = (await response
      .clone()
      .json()
      .catch(() => undefined)) as
      | { data?: Record<string, any> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> }
      | undefined;
    const codes = (answer?.errors ?? []).map((error) => error.extensions?.code);
    if (plainRefusals && !field && codes.includes('UNAUTHENTICATED')) {
      const errors = answer!.errors!.map((error) =>
        error.extensions?.code === 'UNAUTHENTICATED'
          ? { ...error, message: 'Not authenticated', extensions: undefined }
          : error,
      );
      return json(200, { ...answer, errors });
    }
    if (signsIn(field)) {
      // The login, or a door that answered a pair (a second-factor challenge is neither a login nor a failure).
      const pair = answer?.data?.[field];
      if (pair?.accessToken) {
        totals.logins += 1;
        issued(pair, typeof variables['email'] === 'string' ? variables['email'] : undefined);
      } else if (codes.some((code) => code && REFUSED_SIGN_IN.has(code))) totals.failedLogins += 1;
    }
    switch (field) {
      case 'refreshToken': {
        const session = sessionOf(variables['token']);
        count('refreshes', session);
        if (answer?.data?.['refreshToken']) {
          count('refreshSuccesses', session);
          issued(answer.data['refreshToken']);
        } else if (/already used/i.test(answer?.errors?.[0]?.message ?? '')) {
          count('reuseDetections', session);
          if (session) session.status = 'reuse';
        }
        break;
      }
      case 'logout': {
        const session = sessionOf(variables['refreshToken']);
        count('logouts', session);
        if (answer?.data?.['logout'] && session) session.status = 'logged out';
        break;
      }
      case undefined:
        count('tokenExpired', mine, codes.filter((code) => code === 'TOKEN_EXPIRED').length);
    }
    return response;
  }

  // The controls that act on the session of the bearer token ("mine").
  const mineControls: Record<string, (session: NonNullable<ReturnType<typeof sessionOf>>) => Promise<unknown>> = {
    async 'expire-mine'(session) {
      session.expiredBelow = session.lastSerial + 1;
      return { expired: session.sid };
    },
    async 'revoke-mine'(session) {
      // The server behind revokes one session through a logout with its newest refresh token.
      const answer = await mutate('mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}', {
        refreshToken: session.refreshTokens.at(-1)!,
      });
      if (!answer.data?.['logout'] && session.status === 'active')
        throw new Error(answer.errors?.[0]?.message ?? 'not revoked');
      if (session.status === 'active') session.status = 'revoked';
      return { revoked: session.sid };
    },
    async 'present-spent-refresh-token'(session) {
      const spent = session.refreshTokens.at(-2);
      if (spent === undefined) return { error: 'This session has spent no refresh token yet: refresh once first.' };
      const answer = await mutate('mutation($token:String!){refreshToken(token:$token){accessToken refreshToken}}', {
        token: spent,
      });
      count('refreshes', session);
      const message = answer.errors?.[0]?.message ?? '';
      if (/already used/i.test(message)) {
        count('reuseDetections', session);
        session.status = 'reuse';
      }
      return { presented: shortId(claimsOf(spent)?.['jti']), answer: message };
    },
  };

  async function control(name: string, request: Request): Promise<Response | undefined> {
    if (request.method === 'GET' && name === 'lab') return json(200, report());
    if (request.method !== 'POST') return undefined;
    const body = (await request.json().catch(() => ({}))) as { seconds?: number; ms?: number };
    if (name in mineControls) {
      const session = sessionOf(bearerOf(request));
      if (!session)
        return json(400, { error: 'Send the access token of a session this server issued: Authorization: Bearer …' });
      try {
        return json(200, await mineControls[name]!(session));
      } catch (error) {
        return json(409, { error: (error as Error).message });
      }
    }
    switch (name) {
      case 'down':
        downUntil = now() + Math.max(0, Number(body.seconds) || 0) * 1000;
        return json(200, { downUntil });
      case 'plain-refusals':
        plainRefusals = !!(body as { on?: unknown }).on;
        return json(200, { plainRefusals });
      case 'slow-refresh':
        server.faults.delayMs['refreshToken'] = Math.max(0, Number(body.ms) || 0);
        return json(200, { refreshDelay: server.faults.delayMs['refreshToken'] });
      case 'revoke-sessions':
        for (const session of sessions.values()) if (session.status === 'active') session.status = 'revoked';
        return undefined;
      case 'reset-stats':
        totals = { ...zero(), logins: 0, failedLogins: 0 };
        for (const session of sessions.values()) Object.assign(session, zero());
        return undefined;
      default:
        return undefined;
    }
  }

  function report(): LabReport {
    return {
      totals: { ...totals },
      sessions: [...sessions.values()].map(
        ({ refreshTokens: _tokens, expiredBelow: _mark, lastSerial: _serial, ...session }) => session,
      ),
      ...(downUntil > now() && { downUntil }),
      refreshDelay: server.faults.delayMs['refreshToken'] ?? 0,
      plainRefusals,
    };
  }

  async function lab(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const name = /\/control\/([^/]+)$/.exec(path)?.[1];
    if (name !== undefined) {
      const own = await control(name, request.clone());
      if (own) return own;
      return server.fetch(request);
    }
    return graphql(request);
  }

  return Object.assign(lab, { report });
}
