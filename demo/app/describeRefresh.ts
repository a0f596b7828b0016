import type { RefreshEvent } from 'apollo-link-token-pair';
import type { LogEvent } from './eventLog';

/** What the trigger of a successful rotation means, in the event log's words. */
const ROTATED: Record<RefreshEvent['trigger'], { kind: LogEvent['kind']; text: string } | undefined> = {
  proactive: { kind: 'proactive', text: 'Proactive refresh before expiry' },
  retry: { kind: 'refresh', text: 'Refreshed on a retry, after a refresh that got no answer' },
  check: { kind: 'refresh', text: 'Session checked after an uncoded refusal: still good, operation replayed' },
  socket: { kind: 'refresh', text: 'Refreshed for the subscription socket, whose token the server refused' },
  resume: { kind: 'resume', text: 'Refreshed on waking up: the page came back after the refresh was due' },
  'token-expired': { kind: 'replay', text: 'TOKEN_EXPIRED: pair refreshed once, operations replayed' },
  'expired-locally': { kind: 'refresh', text: "Refreshed before sending: the access token had expired by this device's clock" },
  manual: { kind: 'refresh', text: 'Refreshed on request' },
  restore: { kind: 'refresh', text: 'Session restored from the cookie through /auth' },
};

/** The event log's line for a settled refresh, or `undefined` when it is not worth a line. */
export function describeRefresh({ trigger, outcome }: RefreshEvent): Pick<LogEvent, 'kind' | 'text'> | undefined {
  switch (outcome) {
    case 'rotated':
      return ROTATED[trigger];
    case 'adopted':
      return { kind: 'refresh', text: 'Another tab had refreshed already: its pair adopted, no request' };
    case 'failed':
      return {
        kind: 'error',
        text: trigger === 'resume' ? 'Could not refresh on waking up: still signed in, retrying' : 'Could not reach the server to refresh: still signed in, retrying',
      };
    default:
      // `rejected` is told by onSessionEnd; `superseded` changed nothing the user sees.
      return undefined;
  }
}
