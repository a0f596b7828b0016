import type { SeedUser } from './users';

/** A one-time code a test server "sent by e-mail", as {@link TestAuthServer.codes} lists it. */
export interface SignInCode {
  /** Where it was "sent": the account's e-mail. */
  readonly email: string;
  /** `'sign-in'`: from `requestSignInCode`, for `signInWithCode`. `'second-factor'`: from `signIn`, for `verifySecondFactor`. */
  readonly kind: 'sign-in' | 'second-factor';
  /** Six digits. */
  readonly code: string;
  /** The challenge `signIn` answered, which `verifySecondFactor` takes with the code (second factor only). */
  readonly challenge?: string;
  /** When it stops working, in ms of the server's clock: 10 minutes after it was issued. */
  readonly expiresAt: number;
}

/** Why a code was not taken. */
export type CodeRefusal = 'missing' | 'expired' | 'wrong' | 'spent';

/** The pending one-time codes of a server, and the history of those it issued. */
export interface OneTimeCodes {
  /** Issues a code for `user`, pending under `key` (the e-mail for sign-in, the challenge for a second factor). */
  issue(user: SeedUser, kind: SignInCode['kind'], key: string): SignInCode;
  /** The user whose code `code` is pending under `key`, spending it; or why not (a wrong one counts as a try). */
  redeem(kind: SignInCode['kind'], key: string, code: string): SeedUser | CodeRefusal;
  /** The codes issued, oldest first (the last {@link CODE_HISTORY_LIMIT}), those for `email` only when given. */
  issued(email?: string): SignInCode[];
}

/** How long a code works: 10 minutes. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes that spend a pending one. */
export const MAX_WRONG_CODES = 5;
/** How many issued codes {@link OneTimeCodes.issued} keeps. */
export const CODE_HISTORY_LIMIT = 100;

/** Creates the code book of one server, on its clock (`now`, ms); `onCode` hears each code as it is issued. */
export function createOneTimeCodes(now: () => number, onCode?: (code: SignInCode) => void): OneTimeCodes {
  const pending = new Map<string, { code: SignInCode; user: SeedUser; wrong: number }>();
  const history: SignInCode[] = [];
  const slot = (kind: SignInCode['kind'], key: string) => `${kind} ${key}`;

  return {
    issue(user, kind, key) {
      const digits = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, '0');
      const code: SignInCode = {
        email: user.email,
        kind,
        code: digits,
        ...(kind === 'second-factor' && { challenge: key }),
        expiresAt: now() + CODE_TTL_MS,
      };
      for (const [each, entry] of pending) if (now() >= entry.code.expiresAt) pending.delete(each);
      // A new code for the same e-mail replaces the one before, as a second e-mail would.
      pending.set(slot(kind, key), { code, user, wrong: 0 });
      history.push(code);
      if (history.length > CODE_HISTORY_LIMIT) history.shift();
      onCode?.(code);
      return code;
    },
    redeem(kind, key, code) {
      const entry = pending.get(slot(kind, key));
      if (entry === undefined) return 'missing';
      if (now() >= entry.code.expiresAt) {
        pending.delete(slot(kind, key));
        return 'expired';
      }
      if (entry.code.code !== code) {
        entry.wrong += 1;
        if (entry.wrong < MAX_WRONG_CODES) return 'wrong';
        pending.delete(slot(kind, key));
        return 'spent';
      }
      pending.delete(slot(kind, key));
      return entry.user;
    },
    issued(email) {
      return history.filter((code) => email === undefined || code.email === email);
    },
  };
}
