import { describe, expect, it } from 'vitest';
import { createOpenSessions } from '../../src/doctor/createOpenSessions';
import type { GraphQLAnswer } from '../../src/doctor/postGraphQL';

const pair = (name: string) => ({ accessToken: `access-${name}`, refreshToken: `refresh-${name}` });
const loggedOut: GraphQLAnswer = { status: 200, data: { logout: { success: true } }, errors: [] };
const refused: GraphQLAnswer = { status: 200, data: null, errors: [{ message: 'Invalid refresh token' }] };
const unanswered: GraphQLAnswer = { errors: [], failure: 'did not answer within 300 ms' };
const empty: GraphQLAnswer = { status: 200, data: { logout: null }, errors: [] };

describe('createOpenSessions: the sessions the doctor must log out before it reports', () => {
  it.each([
    ['logged out', loggedOut, 0],
    ['refused: dead already', refused, 0],
    ['no answer: still open', unanswered, 1],
    ['no verdict: still open', empty, 1],
  ])('a logout %s', async (_name, answer, left) => {
    const sessions = createOpenSessions();
    sessions.add(pair('a'));
    expect(await sessions.logOutAll({ logout: async () => answer })).toBe(left);
  });

  it('logs out each pair still open once, and none that was closed', async () => {
    const sessions = createOpenSessions();
    const [a, b, c] = [pair('a'), pair('b'), pair('c')];
    sessions.add(a);
    sessions.add(b);
    sessions.add(b);
    sessions.add(c);
    sessions.delete(a);
    const sent: string[] = [];
    const left = await sessions.logOutAll({ logout: async (each) => (sent.push(each.refreshToken), loggedOut) });
    expect(left).toBe(0);
    expect(sent.sort()).toEqual(['refresh-b', 'refresh-c']);
    expect(await sessions.logOutAll({ logout: async () => unanswered })).toBe(0);
  });

  it('keeps the pairs it could not log out, and tries them again', async () => {
    const sessions = createOpenSessions();
    sessions.add(pair('a'));
    expect(await sessions.logOutAll({ logout: async () => unanswered })).toBe(1);
    expect(await sessions.logOutAll({ logout: async () => loggedOut })).toBe(0);
  });
});
