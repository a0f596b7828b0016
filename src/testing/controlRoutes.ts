/** A route of a test server under `…/control/`, which tests and people call to provoke a hard case. */
export interface ControlRoute {
  /** The last segment of its path: `/control/<name>`. */
  readonly name: 'expire-access-tokens' | 'revoke-sessions' | 'reset-stats' | 'stats' | 'codes' | 'id-token';
  readonly method: 'GET' | 'POST';
  /** What it does, in a line. */
  readonly summary: string;
}

/** Every control route of a test server: what it serves, and what `serve` prints. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    name: 'expire-access-tokens',
    method: 'POST',
    summary: 'every access token issued so far is answered with TOKEN_EXPIRED',
  },
  { name: 'revoke-sessions', method: 'POST', summary: 'revokes every session and closes its sockets (4403)' },
  { name: 'reset-stats', method: 'POST', summary: 'zeroes the counters' },
  { name: 'stats', method: 'GET', summary: 'the counters, as JSON' },
  {
    name: 'codes',
    method: 'GET',
    summary: 'the one-time codes the sign-in doors sent by e-mail, as JSON (?email=… for one address)',
  },
  { name: 'id-token', method: 'POST', summary: 'an ID token for signInWithIdToken: body {"email": "…"}' },
];
