import { AuthRejectedError, type TokenUser } from 'apollo-link-token-pair';
import { describe, expect, it } from 'vitest';
import { describeLogin } from '../../../demo/app/describeLogin';

const user = (email: string, role: string) => ({ id: 'u_1', email, role, claims: {} }) as TokenUser;
const refused = (code: string, message: string) =>
  new AuthRejectedError(message, 'sign-in', [{ message, extensions: { code } }]);
const at = 0;

describe("the demo log's line for a sign-in names the door it came through", () => {
  it.each([
    [
      'login()',
      { type: 'login', at, via: 'login', user: user('admin@demo.test', 'ADMIN') },
      { kind: 'login', text: 'Logged in as admin@demo.test (ADMIN)', door: 'login()' },
    ],
    [
      'a sign-up',
      { type: 'login', at, via: 'signIn', door: 'register', user: user('ada@demo.test', 'MEMBER') },
      { kind: 'login', text: 'Signed up and logged in as ada@demo.test (MEMBER)', door: "signIn('register')" },
    ],
    [
      'a code',
      { type: 'login', at, via: 'signIn', door: 'withCode', user: user('cashier@demo.test', 'Cashier') },
      {
        kind: 'login',
        text: 'Logged in as cashier@demo.test (Cashier) with a code by e-mail',
        door: "signIn('withCode')",
      },
    ],
    [
      'a second factor',
      { type: 'login', at, via: 'signIn', door: 'verify', user: user('twofactor@demo.test', 'ADMIN') },
      {
        kind: 'login',
        text: 'Logged in as twofactor@demo.test (ADMIN) after the second factor',
        door: "signIn('verify')",
      },
    ],
    [
      'adopt()',
      { type: 'login', at, via: 'adopt', user: user('owner@demo.test', 'OWNER') },
      { kind: 'login', text: 'Logged in as owner@demo.test (OWNER)', door: 'adopt()' },
    ],
    [
      'a code sent',
      { type: 'login', at, via: 'signIn', door: 'requestCode', next: true },
      { kind: 'step', text: 'A sign-in code was sent by e-mail: enter it to sign in', door: "signIn('requestCode')" },
    ],
    [
      'a refused sign-up, in the server’s words',
      {
        type: 'login',
        at,
        via: 'signIn',
        door: 'register',
        error: refused('EMAIL_TAKEN', 'An account with a@b exists already'),
      },
      { kind: 'error', text: 'Sign-up failed: An account with a@b exists already.', door: "signIn('register')" },
    ],
    [
      'a wrong code',
      { type: 'login', at, via: 'signIn', door: 'withCode', error: refused('INVALID_CODE', 'Wrong sign-in code') },
      { kind: 'error', text: 'Sign-in failed: Wrong sign-in code.', door: "signIn('withCode')" },
    ],
    [
      'login() refusing a second factor',
      {
        type: 'login',
        at,
        via: 'login',
        error: new AuthRejectedError('second factor', 'login', [{ extensions: { code: 'SECOND_FACTOR_REQUIRED' } }]),
      },
      {
        kind: 'step',
        text: 'Login refused: this account has a second factor, so the form signs in through the signIn door',
        door: 'login()',
      },
    ],
  ] as const)('%s', (_name, event, line) => {
    expect(describeLogin(event as never, undefined)).toMatchObject(line);
  });

  it('says "Switched account" when someone else was signed in', () => {
    const event = {
      type: 'login',
      at,
      via: 'signIn',
      door: 'register',
      user: user('ada@demo.test', 'MEMBER'),
    } as const;
    expect(describeLogin(event, 'admin@demo.test (ADMIN)').text).toBe(
      'Switched account: signed up and logged in as ada@demo.test (MEMBER)',
    );
    expect(describeLogin(event, 'ada@demo.test (MEMBER)').text).toBe(
      'Signed up and logged in as ada@demo.test (MEMBER)',
    );
  });
});
