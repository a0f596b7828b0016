import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { Field } from './Field';
import { FormProblem } from './FormProblem';
import { MailBox } from './MailBox';
import { useAction } from './useAction';

/** What the `requestCode` door answered: where the code went, and for how long it works. */
interface CodeSent {
  readonly email: string;
  readonly expiresIn: number;
  /** How many codes were asked for: the mail box reads again for each. */
  readonly asked: number;
}

/** `600` → "10 minutes"; `45` → "45 seconds". */
const lifetime = (seconds: number) =>
  seconds % 60 === 0 && seconds >= 60
    ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}`
    : `${seconds} second${seconds === 1 ? '' : 's'}`;

/**
 * Signs in with a code sent by e-mail: "E-mail me a code" (the `requestCode` door, a step that begins no
 * session), then the code (the `withCode` door), which begins it. The demo's mail box shows the code sent.
 */
export function CodeSignIn() {
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [code, setCode] = useState('');
  const { busy, failure, run, forget } = useAction();

  async function request(event?: FormEvent) {
    event?.preventDefault();
    const to = sent?.email ?? email;
    const answer = await run(() => signIn('requestCode', { email: to }));
    const next = answer?.next as Partial<CodeSent> | undefined;
    if (next)
      setSent({ email: next.email ?? to, expiresIn: Number(next.expiresIn) || 0, asked: (sent?.asked ?? 0) + 1 });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A pair begins the session: the dashboard replaces this form; the log names the door.
    if (sent) await run(() => signIn('withCode', { email: sent.email, code }));
  }

  if (!sent) {
    return (
      <form onSubmit={request} data-testid="code-request-form">
        <Field kind="email" value={email} onChange={setEmail} testId="code-email" />
        <button type="submit" className="primary" disabled={busy} data-testid="request-code">
          {busy ? 'Sending…' : 'E-mail me a code'}
        </button>
        <FormProblem failure={failure} testId="code-error" />
        <p className="hint" data-testid="hint-request-code">
          The server e-mails a 6-digit code (<code>signIn(&apos;requestCode&apos;)</code>, no session yet), and the page
          asks for it. It answers the same for an address it does not know, and sends nothing.
        </p>
      </form>
    );
  }
  return (
    <div className="step">
      <p role="status" data-testid="code-sent">
        We sent a code to <strong>{sent.email}</strong>. It works for {lifetime(sent.expiresIn)}.
      </p>
      <form onSubmit={submit}>
        <Field kind="code" value={code} onChange={setCode} testId="code-input" />
        <button type="submit" className="primary" disabled={busy} data-testid="submit-code">
          {busy ? 'Checking…' : 'Use the code'}
        </button>
        <FormProblem failure={failure} testId="code-error" />
      </form>
      <p className="hint" data-testid="hint-code">
        Enter the 6 digits: the session begins, the dashboard shows, and the log says{' '}
        <code>signIn(&apos;withCode&apos;)</code>. A wrong code is refused in the server&apos;s words; 5 wrong ones
        spend it.
      </p>
      <div className="row">
        <button type="button" className="link" onClick={() => void request()} data-testid="resend-code">
          Send a new code
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            forget();
            setSent(null);
          }}
          data-testid="other-email"
        >
          Use another e-mail
        </button>
      </div>
      <MailBox email={sent.email} asked={sent.asked} onUse={setCode} />
    </div>
  );
}
