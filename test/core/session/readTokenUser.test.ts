import { describe, expect, it } from 'vitest';
import { readTokenUser, type ReadUser } from '../../../src/internal';

// How a session reads its user from the access token's claims and the sign-in answer: by default, or by the app's
// readUser for tokens that name the user otherwise.

const byUserId: ReadUser = (claims) => ({
  id: claims['userId'] as number,
  email: claims['mail'] as string,
  role: [...((claims['roles'] as string[] | undefined) ?? []), ...(claims['isAdmin'] ? ['ADMIN'] : [])],
});

describe('readTokenUser', () => {
  it.each([
    [
      'sub, email and one role claim',
      { sub: 'u_1', email: 'a@b.test', role: 'ADMIN' },
      undefined,
      { id: 'u_1', email: 'a@b.test', role: 'ADMIN', roles: ['ADMIN'] },
    ],
    [
      'a role claim that is a list',
      { sub: 'u_1', role: ['EDITOR', 'VIEWER'] },
      undefined,
      { id: 'u_1', role: 'EDITOR', roles: ['EDITOR', 'VIEWER'] },
    ],
    [
      'the answer’s id and email over the claims, and its role where the token has none',
      { sub: 'u_1' },
      { id: 7, email: 'ans@b.test', role: 'OWNER' },
      { id: '7', email: 'ans@b.test', role: 'OWNER', roles: ['OWNER'] },
    ],
    ['no id anywhere', { email: 'a@b.test' }, undefined, { id: '', role: undefined, roles: [] }],
  ])('by default: %s', (_name, claims, answer, user) => {
    expect(readTokenUser(claims, answer, { roleClaim: 'role' })).toMatchObject(user);
  });

  it('reads the role from another claim by roleClaim', () => {
    expect(
      readTokenUser({ sub: 'u', 'https://x/role': 'ADMIN' }, undefined, { roleClaim: 'https://x/role' }),
    ).toMatchObject({ role: 'ADMIN', roles: ['ADMIN'] });
  });

  it.each([
    [
      'userId and roles[]',
      { userId: 42, mail: 'x@y.test', roles: ['STAFF'] },
      { id: '42', email: 'x@y.test', role: 'STAFF', roles: ['STAFF'] },
    ],
    ['a flag isAdmin', { userId: 'u_9', isAdmin: true }, { id: 'u_9', role: 'ADMIN', roles: ['ADMIN'] }],
    ['neither', { userId: 'u_9' }, { id: 'u_9', role: undefined, roles: [] }],
  ])('by the app’s readUser: %s', (_name, claims, user) => {
    expect(readTokenUser(claims, undefined, { roleClaim: 'role', readUser: byUserId })).toMatchObject(user);
  });

  it('keeps only the names of a role list, and every claim as it was', () => {
    const claims = { sub: 'u', role: ['A', 3, null, 'B'] };
    const user = readTokenUser(claims, undefined, { roleClaim: 'role' });
    expect(user.roles).toEqual(['A', 'B']);
    expect(user.claims).toBe(claims);
  });
});
