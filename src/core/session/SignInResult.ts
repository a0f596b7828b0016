import type { TokenUser } from './TokenAuthState';

/**
 * What `signIn` resolves: `{ user }` when the answer carried a pair and the session began, or `{ next }` (the
 * field's value as the server sent it) when it carried none and nothing changed: a code was sent, a second factor
 * is required, an e-mail must be confirmed.
 */
export type SignInResult<Next = unknown> =
  { readonly user: TokenUser; readonly next?: undefined } | { readonly next: Next; readonly user?: undefined };
