import { describe, expect, it } from 'vitest';
import { isRefusal } from '../../src/ws/isRefusal';

describe("isRefusal: a close by which the server refused the connection's token", () => {
  it.each([
    ['a close with 4401', { code: 4401, reason: 'Unauthorized' }, true],
    ['a close with 4403', { code: 4403, reason: '' }, true],
    ['a normal close', { code: 1000, reason: 'Normal' }, false],
    ["graphql-ws's own 4400", { code: 4400, reason: 'Bad request' }, false],
    ['a code as a string', { code: '4401', reason: '' }, false],
    ['an object with the code but no reason: not a close event', { code: 4401 }, false],
    ['an error event', new Event('error'), false],
    ['a GraphQL error list', [{ message: 'TOKEN_EXPIRED' }], false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a number', 4401, false],
    ['a string', 'reason', false],
  ])('%s', (_name, event, refused) => {
    expect(isRefusal(event)).toBe(refused);
  });
});
