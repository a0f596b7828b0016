import { AuthRequestError, type RefreshEvent, SessionEndedError } from 'apollo-link-token-pair';
import type { LogEvent } from './eventLog';
import type { ResumeCause } from './lab';

/** What the trigger of a successful rotation means, in the event log's words. */
const ROTATED: Record<Exclude<RefreshEvent['trigger'], 'resume'>, { kind: LogEvent['kind']; text: string }> = {
  proactive: { kind: 'proactive', text: 'Proactive refresh before expiry' },
  retry: { kind: 'refresh', text: 'Refreshed on a retry, after a refresh that failed' },
  check: { kind: 'refresh', text: 'Session checked after an uncoded refusal: still good, operation replayed' },
  socket: { kind: 'refresh', text: 'Refreshed for the subscription socket, whose token the server refused' },
  'token-expired': { kind: 'replay', text: 'TOKEN_EXPIRED: pair refreshed once, operations replayed' },
  'expired-locally': {
    kind: 'refresh',
    text: "Refreshed before sending: the access token had expired by this device's clock",
  },
  manual: { kind: 'refresh', text: 'Refreshed on request' },
  restore: { kind: 'refresh', text: 'Session restored from the cookie through /auth' },
  adopt: { kind: 'refresh', text: 'A pair handed over with a dead access token: renewed once' },
};

const RESUMED: Record<ResumeCause, string> = {
  online: 'Refreshed on coming back online: the refresh fell due while offline',
  focus: 'Refreshed on waking up: the page came back after the refresh was due',
  visible: 'Refreshed on waking up: the tab became visible after the refresh was due',
};

/** Why a refresh got no verdict: the HTTP status when the server answered, the network when it did not. */
function whyFailed(error: unknown, offline: boolean): string {
  const status = AuthRequestError.is(error) ? error.status : undefined;
  if (status !== undefined) return `The server answered HTTP ${status} to the refresh`;
  if (offline) return 'Could not refresh: this page is offline';
  if (AuthRequestError.is(error) && /no answer within/.test(error.message)) return 'The refresh got no answer in time';
  return 'Could not reach the server to refresh';
}

/** The event log's line for a settled refresh, or `undefined` when it is not worth a line. */
export function describeRefresh(
  { trigger, outcome, error }: RefreshEvent,
  context: { resumeCause: ResumeCause; offline: boolean },
): Pick<LogEvent, 'kind' | 'text'> | undefined {
  switch (outcome) {
    case 'rotated':
      return trigger === 'resume' ? { kind: 'resume', text: RESUMED[context.resumeCause] } : ROTATED[trigger];
    case 'adopted':
      return { kind: 'refresh', text: 'Another tab had refreshed already: its pair adopted, no request' };
    case 'failed':
      return { kind: 'error', text: `${whyFailed(error, context.offline)}: still signed in, retrying` };
    case 'rejected':
      // No cookie at a page load: nobody was signed in, nothing ended.
      if (SessionEndedError.is(error) && error.reason === 'no-session') return undefined;
      return { kind: 'ended', text: 'The server refused the refresh token: the session is over' };
    default:
      // `superseded` changed nothing the user sees.
      return undefined;
  }
}
