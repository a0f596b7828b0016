import { useState } from 'react';
import { CodeSignIn } from './CodeSignIn';
import { PasswordForm } from './PasswordForm';
import { SignUpForm } from './SignUpForm';

/** The ways in, one tab each: the contract's login, a code by e-mail, a sign-up. */
const WAYS = [
  { id: 'password', label: 'Password', form: PasswordForm },
  { id: 'code', label: 'Code by e-mail', form: CodeSignIn },
  { id: 'sign-up', label: 'Sign up', form: SignUpForm },
] as const;

/**
 * The signed-out card: a tab for each way in. The password (the seeded accounts fill it, and an account with a
 * second factor goes on to its code), a code by e-mail, and a sign-up; each beyond the password is a sign-in door
 * of the token handler (`demo/server/signIns.ts`).
 */
export function LoginForm() {
  const [way, setWay] = useState<(typeof WAYS)[number]['id']>('password');
  const Form = WAYS.find((each) => each.id === way)!.form;
  return (
    <section className="card login" data-testid="login-form">
      <h2>Sign in</h2>
      <div className="tabs" role="tablist" aria-label="How to sign in">
        {WAYS.map((each) => (
          <button
            key={each.id}
            type="button"
            role="tab"
            id={`tab-${each.id}`}
            aria-selected={each.id === way}
            aria-controls="sign-in-way"
            onClick={() => setWay(each.id)}
            data-testid={`tab-${each.id}`}
          >
            {each.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="sign-in-way" aria-labelledby={`tab-${way}`}>
        <Form />
      </div>
    </section>
  );
}
