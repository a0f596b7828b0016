import { describe, expect, it } from 'vitest';
import { checkSignInDocuments } from '../../src/doctor/checkSignInDocuments';

// The doctor reads the app's sign-in doors before any request: one top-level field, and whether it can answer a pair.

describe('checkSignInDocuments', () => {
  it.each([
    [
      'a door that answers a pair',
      'mutation ($e: String!, $p: String!) { register(email: $e, password: $p) { accessToken refreshToken user { id } } }',
      'ok',
      'Its one top-level field, register, can answer a pair.',
    ],
    [
      'a pair aliased from the server’s names',
      'mutation ($t: String!) { google: googleSignIn(idToken: $t) { accessToken: jwt refreshToken: renewal } }',
      'ok',
      'Its one top-level field, google, can answer a pair.',
    ],
    [
      'a union with the pair in one member, through a named fragment',
      `mutation ($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename ...Pair ... on SecondFactorRequired { challenge } } }
       fragment Pair on AuthPayload { accessToken refreshToken }`,
      'ok',
      'Its one top-level field, signIn, can answer a pair.',
    ],
    [
      'a step that sends a code',
      'mutation ($e: String!) { requestSignInCode(email: $e) { email expiresIn } }',
      'warn',
      'Its one top-level field, requestSignInCode, selects no accessToken and refreshToken',
    ],
    [
      'two top-level fields',
      'mutation { a { accessToken refreshToken } b { x } }',
      'fail',
      'signIns.door must select one top-level field, whose answer is the pair (or the next step); it selects a, b.',
    ],
    [
      'two operations',
      'mutation A { a } mutation B { b }',
      'fail',
      'signIns.door must hold one operation; it holds 2.',
    ],
    ['a document that does not parse', 'mutation {', 'fail', 'signIns.door is not a GraphQL document: Syntax Error'],
  ])('%s: %s', (_name, document, status, detail) => {
    const [check] = checkSignInDocuments({ door: document });
    expect(check).toMatchObject({ id: 'sign-in-door:door', title: 'Sign-in door "door"', status });
    expect(check!.detail).toContain(detail);
  });

  it('checks nothing when the app has no doors', () => {
    expect(checkSignInDocuments()).toEqual([]);
  });
});
