// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createSignOutReset } from '../../src/react/createSignOutReset';
import { TokenAuthProvider } from '../../src/react';
import { useLocalSessions } from '../helpers/localSessions';
import { CLUBS, recordingApi } from '../helpers/recordingApi';

const { session, settle } = useLocalSessions();

/** A reset that settles when the test says, and counts its runs. */
function pendingReset() {
  const runs: Array<() => void> = [];
  const reset = vi.fn(() => new Promise<void>((done) => runs.push(done)));
  return { reset, runs };
}

describe('createSignOutReset', () => {
  it('a sign-out waits for its render, then resets on the next timer, and its promise settles once the reset is done', async () => {
    const { reset, runs } = pendingReset();
    const signOut = createSignOutReset(reset);
    let done = false;
    void signOut.defer().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reset).not.toHaveBeenCalled();

    signOut.rendered();
    expect(reset).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(reset).toHaveBeenCalledTimes(1);
    expect(done).toBe(false);
    runs[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('a sign-in first runs the waiting reset at once, and once only: the timer of its render is dropped', async () => {
    const { reset } = pendingReset();
    const signOut = createSignOutReset(reset);
    void signOut.defer();
    signOut.rendered();
    expect(signOut.flush()).toBe(true);
    expect(reset).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reset).toHaveBeenCalledTimes(1);
    expect(signOut.flush()).toBe(false);
  });

  it('runs nothing for renders without a sign-out, and one reset for a sign-out rendered twice (StrictMode)', async () => {
    const { reset } = pendingReset();
    const signOut = createSignOutReset(reset);
    signOut.rendered();
    await vi.advanceTimersByTimeAsync(0);
    expect(reset).not.toHaveBeenCalled();
    expect(signOut.flush()).toBe(false);

    void signOut.defer();
    signOut.rendered();
    signOut.rendered();
    await vi.advanceTimersByTimeAsync(0);
    expect(reset).toHaveBeenCalledTimes(1);
  });
});

describe('createSignOutReset in the provider, on screen', () => {
  // Found by the soak (seed 1): a sign-out and a sign-in in another tab aborted the new user's queries ('Store reset
  // while query was in flight'), since the reset the sign-out left for later ran after them.
  it('signed out and in again at once (as in another tab): the reset runs before the new queries, none is aborted', async () => {
    const auth = session();
    const { sent, link } = recordingApi();
    const client = new ApolloClient({ link: ApolloLink.from([auth.link, link]), cache: new InMemoryCache() });
    const failures: string[] = [];
    function Clubs() {
      const { data, error } = useQuery(CLUBS);
      if (error) failures.push(error.message);
      return <p data-testid="clubs">{data ? data.clubs[0]!.name : error ? error.message : '…'}</p>;
    }
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Clubs />
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await settle();
    expect(screen.getByTestId('clubs').textContent).toBe('Downtown');
    failures.length = 0;
    const before = sent.length;

    await act(async () => {
      void auth.logout();
      await auth.login('a@b.test', 'pw');
    });
    await settle();
    await settle();
    expect(screen.getByTestId('clubs').textContent).toBe('Downtown');
    expect(failures.filter((message) => /Store reset/.test(message))).toEqual([]);
    expect(sent.slice(before).filter((each) => each.name === 'Clubs')).toEqual([{ name: 'Clubs', token: true }]);
  });
});
