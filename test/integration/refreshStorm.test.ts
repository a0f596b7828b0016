import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenAuth,
  shareTokenStore,
  type RefreshEvent,
  type TokenAuth,
  createTokenStore,
  type TokenStore,
} from '../../src';
import { createTestAuthServer, createTestClock } from '../../src/testing';

const MINUTE = 60_000;
const live: TokenAuth[] = [];
afterEach(() => {
  for (const auth of live.splice(0)) auth.dispose();
});

/** A store that keeps only the two tokens, as most hand-written stores do: `receivedAt` is dropped. */
function tokensOnlyStore(): TokenStore {
  const inner = createMemoryTokenStore();
  return createTokenStore({
    get: () => inner.get(),
    set: ({ accessToken, refreshToken }) => inner.set({ accessToken, refreshToken }),
    clear: () => inner.clear(),
    subscribe: inner.subscribe,
  });
}

/**
 * Sessions sharing one store, against a server whose clock is 20 minutes behind and whose tokens live 10 s: every
 * pair a session follows looks expired by the local clock. Returns, per session, when each refresh request went
 * out (by the session's clock).
 */
async function skewedStorm(sessions: number, seconds: number) {
  const clock = createTestClock();
  // Tokens of 10 s: one of 6 s is renewed on its own schedule, 4.4 s after it came (its whole-second claims may
  // have lost a second), ahead of the floor; a storm is what this test is after.
  const server = createTestAuthServer({
    accessTokenTtl: 10,
    clock: { ...clock, now: () => clock.now() - 20 * MINUTE },
  });
  const store = shareTokenStore(tokensOnlyStore());
  const sent = Array.from({ length: sessions }, () => [] as number[]);
  const auths = sent.map((times) => {
    // Settled at once (the server runs in-process on the test clock): when a refresh settles is when it was sent.
    const onRefresh = ({ outcome }: RefreshEvent) => {
      if (outcome !== 'adopted' && outcome !== 'superseded') times.push(clock.now());
    };
    const auth = createTokenAuth({
      uri: 'http://api.test/graphql',
      fetch: server.fetch,
      store,
      clock,
      onRefresh,
      refreshOnResume: false,
    });
    live.push(auth);
    return auth;
  });
  await auths[0]!.login('admin@demo.test', 'admin-pass');
  const start = clock.now();
  for (let second = 0; second < seconds; second++) await clock.advance(1_000);
  return { sent: sent.map((times) => times.map((at) => at - start)), server, auths };
}

describe('no refresh storm: a server clock 20 minutes behind, 10 s tokens, sessions sharing a store that drops receivedAt', () => {
  it.each([1, 2, 3])(
    '%i session(s): at most one refresh per 5 s floor per session, and the session stays signed in',
    async (sessions) => {
      const { sent, server, auths } = await skewedStorm(sessions, 20);
      const all = sent.flat().sort((a, b) => a - b);
      const perSecond = Array.from(
        { length: 20 },
        (_, s) => all.filter((at) => at >= s * 1000 && at < (s + 1) * 1000).length,
      );
      console.info(
        `${sessions} session(s), 20 s: ${server.stats.refreshCalls} refreshes; per second: ${perSecond.join(' ')}`,
      );
      // Before the floor and the timing of followed pairs: 6,566 refreshes in 14 s with two sessions.
      expect(server.stats.refreshCalls, `refreshes per second: ${perSecond.join(' ')}`).toBeLessThanOrEqual(
        sessions * 4,
      );
      for (const times of sent) {
        for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5_000);
      }
      // The 10 s tokens are still renewed in time: the sessions never lost their user, nor spent a token twice.
      expect(server.stats.refreshCalls).toBeGreaterThanOrEqual(2);
      expect(server.stats.reuseDetections).toBe(0);
      for (const auth of auths)
        expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { email: 'admin@demo.test' } });
    },
  );
});
