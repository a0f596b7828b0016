// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { type FormEvent, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthGate, useAuth } from '../../src/react';
import { createTestSession, type TestSession } from '../../src/testing';
import { DOORS } from '../helpers/signInDoors';

// useAuth().signIn behind <AuthGate>, as a person sees it: a sign-up form and a code sent by e-mail, against the
// test server in-process with the contract's 15-minute access tokens, in StrictMode.

let session: TestSession | undefined;
afterEach(async () => {
  cleanup();
  await session?.dispose();
  session = undefined;
});

const field = (form: FormEvent<HTMLFormElement>, name: string) =>
  String(new FormData(form.currentTarget).get(name) ?? '');

function SignUp() {
  const { signIn, error } = useAuth();
  return (
    <form
      aria-label="Sign up"
      onSubmit={(event) => {
        event.preventDefault();
        const variables = { email: field(event, 'email'), password: field(event, 'password') };
        signIn('register', variables).catch(() => {});
      }}
    >
      <input name="email" aria-label="E-mail" />
      <input name="password" aria-label="Password" />
      <button type="submit">Create account</button>
      {error && <p role="alert">{error.message}</p>}
    </form>
  );
}

function CodeSignIn() {
  const { signIn, error } = useAuth();
  const [sent, setSent] = useState<{ email: string } | null>(null);
  return sent ? (
    <form
      aria-label="Enter the code"
      onSubmit={(event) => {
        event.preventDefault();
        signIn('withCode', { email: sent.email, code: field(event, 'code') }).catch(() => {});
      }}
    >
      <p>We sent a code to {sent.email}.</p>
      <input name="code" aria-label="Code" />
      <button type="submit">Sign in with the code</button>
      {error && <p role="alert">{error.message}</p>}
    </form>
  ) : (
    <form
      aria-label="E-mail me a code"
      onSubmit={(event) => {
        event.preventDefault();
        signIn('requestCode', { email: field(event, 'email') }).then(({ next }) => setSent(next as { email: string }));
      }}
    >
      <input name="email" aria-label="E-mail for a code" />
      <button type="submit">E-mail me a code</button>
    </form>
  );
}

function Account() {
  const { user, logout } = useAuth();
  return (
    <p>
      Signed in as {user?.email} <button onClick={() => void logout()}>Sign out</button>
    </p>
  );
}

async function start(fallback: React.ReactNode) {
  session = await createTestSession({ signedIn: false, auth: { signIns: DOORS } });
  render(<AuthGate fallback={fallback}>{<Account />}</AuthGate>, { wrapper: session.wrapper });
  return session;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

// A findBy* that finds nothing fails the test: it is the assertion that the text is on the screen.
describe('a sign-up form behind AuthGate', () => {
  it('signs up, shows the new user, and then the server’s words for an e-mail taken', async () => {
    const { server } = await start(<SignUp />);
    type('E-mail', 'new@example.test');
    type('Password', 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByText('Signed in as new@example.test');
    expect(server.stats.registerCalls).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    type('E-mail', 'new@example.test');
    type('Password', 'correct horse');
    fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/exists|taken|already/i);
    expect(screen.queryByText(/Signed in as/)).toBeNull();
  });
});

describe('a code sent by e-mail, behind AuthGate', () => {
  it('asks for the code after the first step, refuses a wrong one in the server’s words, then signs in', async () => {
    const { server, user } = await start(<CodeSignIn />);
    type('E-mail for a code', user.email);
    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a code' }));
    await screen.findByText(`We sent a code to ${user.email}.`);
    // The first step began nothing.
    expect(screen.queryByText(/Signed in as/)).toBeNull();

    type('Code', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with the code' }));
    const refused = await screen.findByRole('alert');
    expect(refused.textContent).toMatch(/code/i);

    type('Code', server.codes(user.email).at(-1)!.code);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with the code' }));
    await screen.findByText(`Signed in as ${user.email}`);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
