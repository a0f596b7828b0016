import { AuthRejectedError, type TokenAuthEvent } from 'apollo-link-token-pair';
import { describeError } from './describeError';
import type { LogEvent } from './eventLog';

type LoginEvent = Extract<TokenAuthEvent, { type: 'login' }>;

/** How a session began, by the demo's doors (`demo/server/signIns.ts`), in the log's words. */
const SIGNED_IN: Record<string, (who: string) => string> = {
  register: (who) => `Signed up and logged in as ${who}`,
  withCode: (who) => `Logged in as ${who} with a code by e-mail`,
  signIn: (who) => `Logged in as ${who} with a password`,
  verify: (who) => `Logged in as ${who} after the second factor`,
};

/** A step of a door that begins no session: what the server asks for next. */
const STEPS: Record<string, string> = {
  requestCode: 'A sign-in code was sent by e-mail: enter it to sign in',
  signIn: 'Password accepted; the server asks for a second factor, a code sent by e-mail',
};

/** What failed, by door: a sign-up, or a sign-in. */
const FAILED: Record<string, string> = { register: 'Sign-up failed' };

/** The door as the page called it: `login()`, `signIn('register')`, `adopt()`. */
function doorOf(event: Pick<LoginEvent, 'via' | 'door'>): string {
  return event.via === 'signIn' ? `signIn('${event.door ?? ''}')` : `${event.via}()`;
}

/**
 * A `login` event of `auth.observe` as a line of the demo's log, naming the door it came through: who signed in
 * (`Switched account: …` when `before`, who was signed in until now, was someone else), the step a door asked for
 * next, or why it failed, in a person's words.
 */
export function describeLogin(
  event: LoginEvent,
  before: string | undefined,
): Pick<LogEvent, 'kind' | 'text' | 'door'> & { who?: string } {
  const door = doorOf(event);
  const name = event.via === 'signIn' ? (event.door ?? '') : event.via;
  if (event.user) {
    const who = `${event.user.email} (${event.user.role})`;
    const says = SIGNED_IN[name] ?? ((who: string) => `Logged in as ${who}`);
    const line = says(who);
    const text = before && before !== who ? `Switched account: ${line.charAt(0).toLowerCase()}${line.slice(1)}` : line;
    return { kind: 'login', text, door, who };
  }
  if (event.next) return { kind: 'step', text: STEPS[name] ?? 'The server asks for the next step', door };
  // The contract's login refuses an account with a second factor; the demo's form goes on through the signIn door.
  if (AuthRejectedError.is(event.error) && event.error.code === 'SECOND_FACTOR_REQUIRED')
    return {
      kind: 'step',
      text: 'Login refused: this account has a second factor, so the form signs in through the signIn door',
      door,
    };
  const failed = event.via === 'login' ? 'Login failed' : (FAILED[name] ?? 'Sign-in failed');
  return { kind: 'error', text: `${failed}: ${describeError(event.error)}`, door };
}
