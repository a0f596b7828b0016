import { describe, expect, it } from 'vitest';
import { createRequestBudget, MAX_REQUESTS } from '../../src/doctor/requestBudget';

describe("requestBudget: a run's requests, bounded", () => {
  it.each([
    ['none asked', 0, [], 0],
    ['within the budget', 3, [true, true], 2],
    ['the whole budget', 2, [true, true], 2],
    ['past the budget: refused, and not counted as sent', 2, [true, true, false, false], 2],
    ['no budget', 0, [false], 0],
  ])('%s', (_name, max, expected, sent) => {
    const budget = createRequestBudget(max);
    expect(expected.map(() => budget.take())).toEqual(expected);
    expect(budget.sent()).toBe(sent);
  });

  it('allows MAX_REQUESTS by default', () => {
    const budget = createRequestBudget();
    const taken = Array.from({ length: MAX_REQUESTS + 1 }, () => budget.take());
    expect(taken.filter(Boolean)).toHaveLength(MAX_REQUESTS);
    expect(taken.at(-1)).toBe(false);
  });
});
