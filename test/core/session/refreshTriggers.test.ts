import { describe, expect, it } from 'vitest';
import { REFRESH_TRIGGERS, type RefreshTrigger } from '../../../src/core/session/refreshTriggers';

const named = (test: (kind: (typeof REFRESH_TRIGGERS)[RefreshTrigger]) => boolean) =>
  (Object.keys(REFRESH_TRIGGERS) as RefreshTrigger[]).filter((trigger) => test(REFRESH_TRIGGERS[trigger])).sort();

describe('the refresh triggers, in one table', () => {
  it('operations wait for a pair: the server refused the token, or the local clock says it is dead', () => {
    expect(named((kind) => kind.operation)).toEqual(['expired-locally', 'token-expired']);
  });

  it('nobody awaits the timer, a retry, a resume or a restore: their failures go to onError', () => {
    expect(named((kind) => kind.background)).toEqual(['proactive', 'restore', 'resume', 'retry']);
  });

  it('the app, ./ws, the timer, a retry and a resume refresh even while a retry is scheduled', () => {
    expect(named((kind) => kind.forces)).toEqual(['manual', 'proactive', 'resume', 'retry', 'socket']);
  });

  it("the floor: the app's at once, the server's word from a credit, the local clock's a whole floor later", () => {
    expect(named((kind) => kind.floor === 'none')).toEqual(['adopt', 'manual', 'socket']);
    expect(named((kind) => kind.floor === 'credit')).toEqual(['check', 'token-expired']);
    expect(named((kind) => kind.floor === 'schedule')).toEqual([
      'expired-locally',
      'proactive',
      'restore',
      'resume',
      'retry',
    ]);
  });
});
