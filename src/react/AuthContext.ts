import { createContext } from 'react';
import type { SessionEnd, TokenAuth, TokenAuthState, TokenUser } from '../index';
import type { ShownState } from './createShownState';

/** The user as the spec's `me` query returns it. */
export interface Me {
  readonly id: string;
  readonly email: string;
  /** The other fields the provider's `me` document selects (`role`, …). */
  readonly [field: string]: unknown;
}

/** What {@link useAuth} returns. */
export interface AuthContextValue {
  /** `loading` while a stored pair is read, then `authenticated` or `unauthenticated`. */
  readonly status: TokenAuthState['status'];
  /** The user from the access token (`id`, `email`, `role`, `claims`), or `null`. */
  readonly user: TokenUser | null;
  /** When the access token expires, in ms since the epoch (local clock), while authenticated. */
  readonly expiresAt: number | undefined;
  /** When the proactive refresh is due, in ms since the epoch (local clock), while authenticated. */
  readonly refreshAt: number | undefined;
  /** Set while a refresh that got no answer waits to be retried: when, why, which attempt. */
  readonly retry: TokenAuthState['retry'] | null;
  /**
   * `true` while a refresh failed with no verdict (network, 5xx, timeout) and waits for its retry (`retry` is
   * set): the user is still signed in; show "reconnecting", not a login form.
   */
  readonly reconnecting: boolean;
  /**
   * How the last session ended (`logout` here or elsewhere, `replaced` by another user's login elsewhere,
   * `rejected` as `expired` or `revoked`), until the next login: for a "you were signed out because…" message.
   */
  readonly ended: SessionEnd | null;
  /** The spec's `me` query, fetched through Apollo while authenticated; `null` otherwise or until it answers. */
  readonly me: Me | null;
  /** The last login failure or session error; cleared by the next successful login. */
  readonly error: Error | null;
  /** Logs in; resolves the user. Rejects like `auth.login`, and the failure also shows in `error`. */
  readonly login: TokenAuth['login'];
  /**
   * Runs a sign-in door of the session (`auth.signIn`): resolves `{ user }` once a pair began the session, or
   * `{ next }` for a step that begins none (a code sent, a second factor asked for). Rejects like `auth.signIn`,
   * and the failure also shows in `error`. Typed by the session's doors when called on `auth` itself.
   */
  readonly signIn: TokenAuth['signIn'];
  /** Begins a session from a pair the app holds (`auth.adopt`); a failure also shows in `error`. */
  readonly adopt: TokenAuth['adopt'];
  /**
   * `auth.logout()`, resolved once the Apollo cache holds nothing of this user. The provider clears it however
   * the session ends; this only waits for it.
   */
  readonly logout: () => Promise<void>;
  /** Whether the user holds `role` (among `user.roles`), or one of `role` when given a list. */
  readonly hasRole: (role: string | readonly string[]) => boolean;
  /** The session itself, for what the hook does not cover (`refresh`, `getAccessToken`). */
  readonly auth: TokenAuth;
}

/** What the provider shares: the session and its actions, stable for the provider's life. */
export interface AuthBinding {
  readonly auth: TokenAuth;
  /** The session's state as the screens show it: a new user once the previous user's data is gone. */
  readonly shown: ShownState;
  /** The snapshot on the server and while hydrating: the provider's `serverState`, else the session's first. */
  initial(): TokenAuthState;
  readonly login: TokenAuth['login'];
  readonly signIn: TokenAuth['signIn'];
  readonly adopt: TokenAuth['adopt'];
  readonly logout: () => Promise<void>;
  /** Settles once the last reset of the Apollo store that a session end started is over. */
  cleared: Promise<void>;
  /** The hook's value for a state and `me`: one object per change, shared by every component. */
  view(state: TokenAuthState, me: Me | null): AuthContextValue;
}

/** The binding behind {@link useAuth}; `null` outside `<TokenAuthProvider>`. */
export const AuthContext = createContext<AuthBinding | null>(null);

/** The `me` answer, apart from the binding: it changes at login and logout only. */
export const MeContext = createContext<Me | null>(null);
