import { act, cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { createTokenAuth, type TokenAuth, type TokenAuthOptions } from '../../src';
import { service } from './jwtService';
import { TIME } from './session';

/**
 * Registers, for a React test file, fake timers from `TIME.T0` and the unmounting of what it rendered; returns a
 * maker of sessions on an in-process JWT service, `options` over the defaults (disposed after each test), and `settle`, which lets the timers
 * due now run inside `act`.
 */
export function useLocalSessions(): {
  session(options?: Partial<TokenAuthOptions>): TokenAuth;
  settle(): Promise<void>;
} {
  const disposers: Array<() => void> = [];
  beforeEach(() => void vi.useFakeTimers({ now: TIME.T0 }));
  afterEach(() => {
    cleanup();
    for (const dispose of disposers.splice(0)) dispose();
    vi.useRealTimers();
  });
  return {
    session(options = {}) {
      const auth = createTokenAuth({
        uri: 'http://unused.test',
        transport: service().transport,
        refreshOnResume: false,
        ...options,
      });
      disposers.push(() => auth.dispose());
      return auth;
    },
    settle: () => act(async () => void (await vi.advanceTimersByTimeAsync(0))),
  };
}
