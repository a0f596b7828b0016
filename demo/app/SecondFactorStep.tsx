import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { Field } from './Field';
import { FormProblem } from './FormProblem';
import { MailBox } from './MailBox';
import { useAction } from './useAction';

/** The challenge the `signIn` door answered for an account with a second factor. */
export interface SecondFactorChallenge {
  readonly email: string;
  readonly challenge: string;
}

/**
 * The second step of an account with a second factor: the code sent by e-mail, through the `verify` door
 * (`verifySecondFactor` with the challenge). The session begins when the server takes it.
 */
export function SecondFactorStep({ email, challenge, onStartOver }: SecondFactorChallenge & { onStartOver(): void }) {
  const { signIn } = useAuth();
  const [code, setCode] = useState('');
  const { busy, failure, run } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A pair begins the session: the dashboard replaces this form; the log names the door.
    await run(() => signIn('verify', { challenge, code }));
  }

  return (
    <div className="step" data-testid="second-factor">
      <p role="status" data-testid="second-factor-asked">
        <strong>{email}</strong> has a second factor: we sent a code to that address.
      </p>
      <form onSubmit={submit}>
        <Field kind="code" label="Second-factor code" value={code} onChange={setCode} testId="second-factor-code" />
        <button type="submit" className="primary" disabled={busy} data-testid="verify-second-factor">
          {busy ? 'Verifying…' : 'Verify'}
        </button>
        <FormProblem failure={failure} testId="second-factor-error" />
      </form>
      <p className="hint" data-testid="hint-second-factor">
        Enter the 6 digits: the session begins, the dashboard shows, and the log says{' '}
        <code>signIn(&apos;verify&apos;)</code>. A wrong code is refused in the server&apos;s words; after 5 the
        challenge is spent, and you start over.
      </p>
      <button type="button" className="link" onClick={onStartOver} data-testid="start-over">
        Start over
      </button>
      <MailBox email={email} challenge={challenge} asked={0} onUse={setCode} />
    </div>
  );
}
