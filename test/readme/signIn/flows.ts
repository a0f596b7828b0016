// flows.ts: each door as a screen calls it. `auth.signIn` is typed by the documents: their names, their variables,
// and what `next` holds.
import type { createAuth } from './doors';

type Auth = ReturnType<typeof createAuth>;

export async function signUp(auth: Auth, email: string, password: string) {
  const { user } = await auth.signIn('register', { email, password });
  return user; // signed in: no login after sign-up
}

export async function signInWithCode(auth: Auth, email: string, askForCode: () => Promise<string>) {
  await auth.signIn('requestCode', { email }); // { next: { email, expiresIn } }: nothing began yet
  const { user } = await auth.signIn('withCode', { email, code: await askForCode() });
  return user;
}

export async function signInWithPassword(
  auth: Auth,
  email: string,
  password: string,
  askForCode: () => Promise<string>,
) {
  const first = await auth.signIn('signIn', { email, password });
  if (first.user) return first.user; // no second factor for this account
  // The only answer without a pair: SecondFactorRequired.
  const { user } = await auth.signIn('verify', { challenge: first.next.challenge, code: await askForCode() });
  return user;
}

// Google Identity Services calls back with `{ credential }`, the ID token.
export async function signInWithGoogle(auth: Auth, response: { credential: string }) {
  const { user } = await auth.signIn('google', { idToken: response.credential });
  return user;
}
