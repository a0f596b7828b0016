import { afterEach, expect, it } from 'vitest';
import { createTestAuthServer, type TestAuthServer } from '../../../src/testing';
import { adoptStoredPair } from './adopt';
import { createAuth } from './doors';
import { signInWithCode, signInWithGoogle, signInWithPassword, signUp } from './flows';

// docs/sign-in.md's recipes, against the package's test server over HTTP on 127.0.0.1, with the contract's
// 15-minute access tokens in real time.

let server: TestAuthServer | undefined;
const disposers: Array<() => void> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) dispose();
  await server?.close();
});

async function start() {
  server = createTestAuthServer();
  const auth = createAuth(await server.listen(0, '127.0.0.1'));
  disposers.push(() => auth.dispose());
  return { server, auth };
}

it('signs up, and is signed in with no login after it', async () => {
  const { server, auth } = await start();
  await expect(signUp(auth, 'new@demo.test', 'correct horse')).resolves.toMatchObject({ email: 'new@demo.test' });
  expect(auth.getState().status).toBe('authenticated');
  expect(server.stats.loginCalls).toBe(0);
});

it('signs in with a code sent by e-mail', async () => {
  const { server, auth } = await start();
  const askForCode = async () => server.codes('admin@demo.test').at(-1)!.code;
  await expect(signInWithCode(auth, 'admin@demo.test', askForCode)).resolves.toMatchObject({ id: 'u_admin' });
});

it('signs in with a password, and a second factor where the account has one', async () => {
  const { server, auth } = await start();
  let asked = 0;
  const askForCode = async () => (asked++, server.codes('twofactor@demo.test').at(-1)!.code);
  await expect(signInWithPassword(auth, 'owner@demo.test', 'owner-pass', askForCode)).resolves.toMatchObject({
    id: 'u_owner',
  });
  expect(asked).toBe(0);
  await expect(signInWithPassword(auth, 'twofactor@demo.test', 'twofactor-pass', askForCode)).resolves.toMatchObject({
    id: 'u_twofactor',
  });
  expect(asked).toBe(1);
});

it('exchanges a Google ID token for a session', async () => {
  const { server, auth } = await start();
  const credential = await server.signIdToken({ email: 'ada@gmail.test', name: 'Ada' });
  await expect(signInWithGoogle(auth, { credential })).resolves.toMatchObject({ email: 'ada@gmail.test' });
});

it('adopts the pair another library left in localStorage, with no request, and empties it', async () => {
  const { server, auth } = await start();
  const pair = await server.issueTokens('cashier@demo.test');
  const kept = new Map(Object.entries(pair));
  const storage = { getItem: (key: string) => kept.get(key) ?? null, removeItem: (key: string) => kept.delete(key) };
  const before = server.stats.requests;
  await expect(adoptStoredPair(auth, storage)).resolves.toMatchObject({ id: 'u_cashier' });
  expect(server.stats.requests).toBe(before);
  expect(kept.size).toBe(0);
  await expect(auth.getAccessToken()).resolves.toBe(pair.accessToken);
  await expect(adoptStoredPair(auth, storage)).resolves.toBeNull();
});
