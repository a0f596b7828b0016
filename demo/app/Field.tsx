import type { InputHTMLAttributes } from 'react';

/** The inputs of the sign-in forms: what each is to the browser (its password manager, a phone's keyboard). */
const KINDS = {
  email: { label: 'E-mail', name: 'email', type: 'email', autoComplete: 'username' },
  password: { label: 'Password', name: 'password', type: 'password', autoComplete: 'current-password' },
  'new-password': { label: 'Password', name: 'password', type: 'password', autoComplete: 'new-password' },
  code: { label: 'Code', name: 'code', inputMode: 'numeric', autoComplete: 'one-time-code' },
} satisfies Record<string, { label: string } & InputHTMLAttributes<HTMLInputElement>>;

/** A labelled, required input of a sign-in form; a code is taken without the spaces pasted around it. */
export function Field(props: {
  kind: keyof typeof KINDS;
  value: string;
  onChange(value: string): void;
  /** @defaultValue the kind's: "E-mail", "Password", "Code" */
  label?: string;
  testId?: string;
}) {
  const { label, ...input } = KINDS[props.kind];
  return (
    <label>
      {props.label ?? label}
      <input
        {...input}
        value={props.value}
        onChange={(e) => props.onChange(props.kind === 'code' ? e.target.value.trim() : e.target.value)}
        data-testid={props.testId}
        required
      />
    </label>
  );
}
