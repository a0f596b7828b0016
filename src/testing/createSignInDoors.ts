import type { GraphQLError } from 'graphql';
import type { TokenPair } from '../index';
import { authError } from './authError';
import type { IdTokenIssuer } from './createIdTokenIssuer';
import { CODE_TTL_MS, MAX_WRONG_CODES, type CodeRefusal, type OneTimeCodes } from './createOneTimeCodes';
import type { TestAuthServerStats } from './stats';
import { addAccount, findByCredentials, type SeedUser } from './users';

/** What the sign-in doors need from their service. */
export interface SignInDoorsOptions {
  /** The server's accounts: `register` and the first ID token of an unknown e-mail add to them. */
  users: SeedUser[];
  stats: TestAuthServerStats;
  codes: OneTimeCodes;
  idTokens: IdTokenIssuer;
  /** Opens a session for `user` and issues its first pair, as login does. */
  openSession(user: SeedUser): Promise<TokenPair>;
}

/** The role of an account that signed itself up (`register`, or a first ID token). */
export const MEMBER_ROLE = 'MEMBER';
/** The shortest password `register` takes. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * The resolvers of the sign-in doors beyond the contract, by mutation name: `register`, `requestSignInCode`,
 * `signInWithCode`, `signIn`, `verifySecondFactor`, `signInWithIdToken`. Each that signs in opens a session as
 * `loginWithEmailPassword` does, so its pair refreshes and logs out like any other.
 */
export function createSignInDoors(options: SignInDoorsOptions) {
  const { users, stats, codes, idTokens, openSession } = options;
  const signedIn = async (user: SeedUser) => ({ ...(await openSession(user)), user });
  const byEmail = (email: string) => users.find((user) => user.email === email);

  return {
    async register({ email, password }: { email: string; password: string }) {
      stats.registerCalls += 1;
      if (!email.includes('@')) throw authError('BAD_USER_INPUT', 'email must be an e-mail address, with an @');
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw authError('BAD_USER_INPUT', `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
      }
      if (byEmail(email) !== undefined) throw authError('EMAIL_TAKEN', `An account with ${email} exists already`);
      return signedIn(addAccount(users, { email, password, role: MEMBER_ROLE }));
    },

    async requestSignInCode({ email }: { email: string }) {
      stats.requestSignInCodeCalls += 1;
      const user = byEmail(email);
      // The same answer for an unknown e-mail, so that the door does not tell who has an account.
      if (user !== undefined) codes.issue(user, 'sign-in', email);
      return { email, expiresIn: CODE_TTL_MS / 1000 };
    },

    async signInWithCode({ email, code }: { email: string; code: string }) {
      stats.signInWithCodeCalls += 1;
      const user = codes.redeem('sign-in', email, code);
      if (typeof user === 'string') throw codeRefused(user);
      return signedIn(user);
    },

    async signIn({ email, password }: { email: string; password: string }) {
      stats.signInCalls += 1;
      const user = findByCredentials(users, email, password);
      if (user === undefined) throw authError('INVALID_CREDENTIALS', 'Invalid email or password');
      if (!user.secondFactor) return { __typename: 'AuthPayload', ...(await signedIn(user)) };
      const challenge = crypto.randomUUID();
      codes.issue(user, 'second-factor', challenge);
      return { __typename: 'SecondFactorRequired', challenge };
    },

    async verifySecondFactor({ challenge, code }: { challenge: string; code: string }) {
      stats.verifySecondFactorCalls += 1;
      const user = codes.redeem('second-factor', challenge, code);
      if (typeof user === 'string') throw challengeRefused(user);
      return signedIn(user);
    },

    async signInWithIdToken({ idToken }: { idToken: string }) {
      stats.signInWithIdTokenCalls += 1;
      const claims = await idTokens.verify(idToken);
      if ('refused' in claims) throw authError('INVALID_ID_TOKEN', claims.refused);
      const user = byEmail(claims.email) ?? addAccount(users, { email: claims.email, password: '', role: MEMBER_ROLE });
      return signedIn(user);
    },
  };
}

/** The error of `loginWithEmailPassword` for an account with a second factor. */
export function secondFactorRequired(): GraphQLError {
  return authError(
    'SECOND_FACTOR_REQUIRED',
    'This account has a second factor: sign in with signIn, then verifySecondFactor with the code sent by e-mail',
  );
}

function codeRefused(refusal: CodeRefusal): GraphQLError {
  const messages: Record<CodeRefusal, string> = {
    missing: 'No sign-in code is pending for this e-mail: request one with requestSignInCode',
    expired: 'Sign-in code expired: request a new one',
    wrong: 'Wrong sign-in code',
    spent: `Wrong sign-in code, ${MAX_WRONG_CODES} times: the code is spent; request a new one`,
  };
  return authError('INVALID_CODE', messages[refusal]);
}

function challengeRefused(refusal: CodeRefusal): GraphQLError {
  if (refusal === 'missing') return authError('INVALID_CHALLENGE', 'Unknown or used challenge: sign in again');
  if (refusal === 'expired') return authError('INVALID_CHALLENGE', 'Challenge expired: sign in again');
  return authError(
    'INVALID_CODE',
    refusal === 'wrong'
      ? 'Wrong second-factor code'
      : `Wrong second-factor code, ${MAX_WRONG_CODES} times: the challenge is spent; sign in again`,
  );
}
