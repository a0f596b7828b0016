import { describe, expect, it, vi } from 'vitest';
import { AuthRejectedError, AuthRequestError, logTokenAuth, SessionEndedError } from '../../../src';
import { createTimeline, describeEvent, redact } from '../../../src/internal';
import { rejection } from '../../helpers/fetchStub';
import { execute } from '../../helpers/links';
import { loggedInLinks, setupLinks, tick, TIME, useTestClock, watch } from '../../helpers/session';

// The timeline the devtools show and the lines logTokenAuth prints: a session's events in words, with the
// contract's 15-minute access tokens on the test clock, and never a token.

const { MINUTE } = TIME;

useTestClock();

describe('createTimeline', () => {
  it('shows a session’s life newest first: the sign-in, the proactive refresh, one line for a burst replayed, the logout', async () => {
    const { auth, stub, server, link } = setupLinks();
    const timeline = createTimeline(auth);
    await auth.login('a@b.test', 'pw');
    await tick(12.5 * MINUTE);
    const token = (await auth.getAccessToken())!;
    server.expired.add(token);
    const runs = Array.from({ length: 5 }, () => execute(link));
    await tick();
    expect(runs.every((run) => run.completed)).toBe(true);
    await auth.logout();
    const lines = timeline.getSnapshot().map(({ kind, title, count }) => ({ kind, title, count }));
    expect(lines).toEqual([
      { kind: 'end', title: 'Session ended: logout here', count: 1 },
      { kind: 'operations', title: '5 operations replayed: Me', count: 5 },
      { kind: 'refresh', title: 'Refresh (token-expired) → rotated', count: 1 },
      { kind: 'refresh', title: 'Refresh (proactive) → rotated', count: 1 },
      { kind: 'login', title: 'Signed in as a@b.test (ADMIN)', count: 1 },
    ]);
    expect(stub.of('refreshToken')).toHaveLength(2);
    expect(JSON.stringify(timeline.getSnapshot())).not.toContain(token);
  });

  it('shows a refused refresh and the end it leads to, in the server’s words', async () => {
    const { auth, stub } = await loggedInLinks();
    const timeline = createTimeline(auth);
    timeline.clear();
    const refresh = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').respond(rejection('REFRESH_TOKEN_REVOKED', 'This session was revoked by an admin.'));
    await tick();
    expect(SessionEndedError.is(refresh.error) && refresh.error.reason).toBe('rejected');
    const [refreshed, end] = timeline.getSnapshot();
    expect(end).toMatchObject({ kind: 'end', title: 'Session ended: rejected (revoked)' });
    expect(refreshed).toMatchObject({ kind: 'refresh', title: 'Refresh (manual) → rejected' });
    expect(refreshed?.detail).toContain('This session was revoked by an admin.');
  });

  it('keeps at most `limit` entries, tells its listeners, clears, and stops observing', async () => {
    const { auth } = setupLinks();
    const timeline = createTimeline(auth, { limit: 3 });
    const listener = vi.fn();
    timeline.subscribe(listener);
    await auth.login('a@b.test', 'pw');
    for (let i = 0; i < 4; i++) await auth.refresh();
    expect(timeline.getSnapshot()).toHaveLength(3);
    expect(listener).toHaveBeenCalledTimes(5);
    timeline.clear();
    expect(timeline.getSnapshot()).toEqual([]);
    timeline.stop();
    await auth.refresh();
    expect(timeline.getSnapshot()).toEqual([]);
  });
});

describe('logTokenAuth', () => {
  it('prints one line per event, timed, with the duration and the failure’s words, through the function it is given', async () => {
    const lines: string[] = [];
    const { auth, stub } = setupLinks({}, undefined, false);
    const stop = logTokenAuth(auth, { log: (line) => lines.push(line) });
    const login = watch(auth.login('a@b.test', 'wrong'));
    await tick();
    stub.last('loginWithEmailPassword').respond(rejection('INVALID_CREDENTIALS', 'Wrong e-mail or password.'));
    await tick();
    expect(AuthRejectedError.is(login.error) && login.error.code).toBe('INVALID_CREDENTIALS');
    stub.auto = true;
    await auth.login('a@b.test', 'pw');
    await tick(12.5 * MINUTE);
    stop();
    await auth.logout();
    expect(lines).toEqual([
      expect.stringMatching(/^\[auth\] 12:00:00\.000 Sign-in failed: .*Wrong e-mail or password\.$/),
      '[auth] 12:00:00.000 Signed in as a@b.test (ADMIN)',
      '[auth] 12:12:30.000 Refresh (proactive) → rotated (0 ms)',
    ]);
  });

  it('prints through console.debug by default', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const { auth } = setupLinks();
    const stop = logTokenAuth(auth);
    await auth.login('a@b.test', 'pw');
    stop();
    expect(debug).toHaveBeenCalledWith('[auth] 12:00:00.000 Signed in as a@b.test (ADMIN)');
    debug.mockRestore();
  });
});

describe('describeEvent', () => {
  it('names a refresh that checked for revocation as a check, with its verdict', () => {
    const at = TIME.T0;
    expect(describeEvent({ type: 'refresh', trigger: 'check', outcome: 'rotated', ms: 80, at })).toEqual({
      kind: 'check',
      at,
      title: 'Revocation check → session alive (rotated)',
      ms: 80,
    });
    expect(describeEvent({ type: 'refresh', trigger: 'check', outcome: 'rejected', ms: 80, at }).title).toBe(
      'Revocation check → rejected',
    );
  });

  it('names a store that failed, and a retry that waits for the network', () => {
    const at = TIME.T0;
    const failed = new AuthRequestError('The token store could not be read: locked', 'store');
    expect(describeEvent({ type: 'error', error: failed, at })).toMatchObject({
      kind: 'store',
      detail: failed.message,
    });
    expect(describeEvent({ type: 'retry', until: undefined, attempt: 2, error: failed, at }).title).toBe(
      'Retry #2 when the app is back online',
    );
  });
});

describe('redact', () => {
  it('cuts a JWT and an opaque token to their last 4 characters, and leaves words and field names', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1XzEifQ.c2lnbmF0dXJlLWhlcmUtMTIzNA';
    const opaque = 'r3fr3sh-t0k3n-0f-f0rty-ch4racters-xyz9';
    expect(redact(`Bearer ${jwt} refused; ${opaque} spent`)).toBe('Bearer …IzNA refused; …xyz9 spent');
    expect(redact('loginWithEmailPassword failed on the network')).toBe('loginWithEmailPassword failed on the network');
  });
});

describe('describeEvent of a sign-in', () => {
  const user = { id: 'u_1', email: 'a@b.test', role: 'ADMIN', claims: {} };
  it.each([
    [{ via: 'login', user }, 'Signed in as a@b.test (ADMIN)'],
    [{ via: 'signIn', door: 'register', user }, 'Signed in as a@b.test (ADMIN) (register)'],
    [{ via: 'adopt', user }, 'Signed in as a@b.test (ADMIN) (a pair handed over)'],
    [
      { via: 'signIn', door: 'requestCode', next: true },
      'Sign-in step (requestCode): the server asks for the next step',
    ],
    [{ via: 'signIn', door: 'withCode', error: new Error('Invalid code') }, 'Sign-in failed (withCode)'],
    [{ via: 'login', error: new Error('Invalid email or password') }, 'Sign-in failed'],
  ] as const)('says which door: %o', (event, title) => {
    expect(describeEvent({ type: 'login', at: 0, ...event })).toMatchObject({ kind: 'login', title });
  });
});
