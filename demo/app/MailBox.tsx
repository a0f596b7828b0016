import { useEffect, useState } from 'react';
import type { SignInCode } from '../../src/testing/createOneTimeCodes.ts';

/** Which mail {@link MailBox} shows. */
export interface MailBoxProps {
  /** Where the code was sent. */
  readonly email: string;
  /** A second factor's challenge: its code; else the newest sign-in code sent to `email`. */
  readonly challenge?: string;
  /** How many codes the page has asked for: a new number reads the box again. */
  readonly asked: number;
  /** Fills the form's code field with the code. */
  onUse(code: string): void;
}

type Mail =
  | { readonly state: 'opening' }
  | { readonly state: 'read'; readonly code?: SignInCode }
  | { readonly state: 'unreachable' };

/** The codes the demo server "sent by e-mail" to `email`, oldest first: its control route, as the counters read theirs. */
async function readMail(email: string): Promise<readonly SignInCode[]> {
  const response = await fetch(`/control/codes?email=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return ((await response.json()) as { codes: SignInCode[] }).codes;
}

/**
 * The demo's mail box: the demo server sends no e-mail, so the page shows the code it would have sent (its
 * `GET /control/codes`), for a person to copy. A lab's shortcut: a real app never shows it.
 */
export function MailBox({ email, challenge, asked, onUse }: MailBoxProps) {
  const [mail, setMail] = useState<Mail>({ state: 'opening' });
  useEffect(() => {
    let shown = true;
    setMail({ state: 'opening' });
    readMail(email).then(
      (codes) => {
        const mine = codes.filter((code) =>
          challenge === undefined ? code.kind === 'sign-in' : code.challenge === challenge,
        );
        if (shown) setMail({ state: 'read', code: mine.at(-1) });
      },
      () => shown && setMail({ state: 'unreachable' }),
    );
    return () => void (shown = false);
  }, [email, challenge, asked]);

  return (
    <aside className="mailbox" data-testid="mail-box" aria-label="The demo's mail box">
      <h4>
        Mail to {email} <small>(the demo&apos;s mail box)</small>
      </h4>
      {mail.state === 'opening' && <p className="hint">Opening the mail box…</p>}
      {mail.state === 'unreachable' && <p className="error">The demo server cannot be reached.</p>}
      {mail.state === 'read' && mail.code && (
        <p data-testid="mail-box-message">
          Your {challenge === undefined ? 'sign-in' : 'second-factor'} code:{' '}
          <code className="mailed-code" data-testid="mail-box-code">
            {mail.code.code}
          </code>{' '}
          (until {new Date(mail.code.expiresAt).toLocaleTimeString()}){' '}
          <button type="button" className="link" onClick={() => onUse(mail.code!.code)} data-testid="use-mailed-code">
            Fill it in
          </button>
        </p>
      )}
      {mail.state === 'read' && !mail.code && (
        <p data-testid="mail-box-empty">
          No mail: the server sends a code only to an account it knows, and answers the page the same either way.
        </p>
      )}
      <p className="hint">
        The demo server sends no e-mail; this box shows what it would have sent (<code>GET /control/codes</code>), so
        that you can copy the code.
      </p>
    </aside>
  );
}
