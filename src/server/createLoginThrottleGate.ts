import { jsonResponse as json } from './jsonResponse';
import type { LoginAttempt } from './LoginThrottle';
import type { HandlerConfig } from './readHandlerOptions';

/** What {@link createLoginThrottleGate} needs: the app's `loginThrottle` (without one, every attempt goes through). */
export type LoginThrottleGateOptions = Pick<HandlerConfig, 'loginThrottle' | 'report'>;

/** The app's login throttle, as the routes that sign in ask it. See {@link createLoginThrottleGate}. */
export interface LoginThrottleGate {
  /** The throttle's refusal of `attempt` (429 `TOO_MANY_ATTEMPTS` with `Retry-After`), if it refuses. */
  check(attempt: LoginAttempt): Promise<Response | undefined>;
  /** Tells the throttle how the upstream answered an attempt it let through. */
  record(attempt: LoginAttempt, outcome: 'accepted' | 'refused'): Promise<void>;
}

/**
 * Creates the gate every route that signs in passes through, so that they count against one throttle. A
 * throttle that fails is reported and lets the attempt through: a broken counter must not lock everybody out.
 */
export function createLoginThrottleGate({ loginThrottle, report }: LoginThrottleGateOptions): LoginThrottleGate {
  return {
    async check(attempt) {
      let verdict: { retryAfter: number } | void;
      try {
        verdict = await loginThrottle?.check(attempt);
      } catch (error) {
        report(error);
        return;
      }
      if (!verdict) return;
      const seconds = Math.max(1, Math.ceil(verdict.retryAfter / 1000));
      const message = `Too many sign-in attempts: try again in ${seconds} s.`;
      return json(429, { error: { code: 'TOO_MANY_ATTEMPTS', message, retryAfter: seconds * 1000 } }, [], {
        'retry-after': String(seconds),
      });
    },
    async record(attempt, outcome) {
      try {
        await loginThrottle?.record?.(attempt, outcome);
      } catch (error) {
        report(error);
      }
    },
  };
}
