import { ApolloLink } from '@apollo/client';
import { EMPTY, from, mergeMap, throwError, type Observable } from 'rxjs';
import { CHAIN_PROBE_KEY, type ChainProbe } from './chainProbe';
import { skipsTokenAuth } from './skipTokenAuth';
import type { OperationEvent } from '../core/session/TokenAuthEvent';

/**
 * What an attempt goes out with: its access token, and the session (epoch) it belongs to. The part of the core's
 * `SentToken` (src/core/session/SessionRecord.ts) that the links read; one name for both.
 */
export interface SentToken {
  readonly pair: { readonly accessToken: string };
  readonly epoch: object;
}

/** What {@link TokenAuthLink} needs from the session. */
export interface AccessTokenSource {
  /** The session to send with now, synchronously when no wait is needed; `null` when signed out. */
  current(): SentToken | null | Promise<SentToken | null>;
  /** Tells the session's observers that an operation waits for a pair. */
  emit?(event: OperationEvent): void;
}

/** The context key under which {@link TokenAuthLink} records what an attempt carried. */
export const SENT_TOKEN_KEY = 'tokenPairSent';

export declare namespace TokenAuthLink {
  /** Options of {@link TokenAuthLink}. */
  interface Options {
    /** The session that owns the pair, the one inside `createTokenAuth`. */
    auth: AccessTokenSource;
  }
}

/**
 * Sets `Authorization: Bearer <accessToken>` on every operation; sends no header when nobody is logged in.
 *
 * @remarks
 * While the stored pair loads, or when the access token is already dead by the local clock, operations wait
 * for the new token instead of going out with the dead one. A token that is still valid goes out at once,
 * even while a refresh is in flight. In the common case the operation is forwarded synchronously, with no
 * promise. An operation whose context says `skipTokenAuth: true` goes out as it is, with no header and no wait.
 */
export class TokenAuthLink extends ApolloLink {
  constructor({ auth }: TokenAuthLink.Options) {
    super((operation, forward) => {
      const context = operation.getContext() as { headers?: Record<string, string>; [CHAIN_PROBE_KEY]?: ChainProbe };
      const probe = context[CHAIN_PROBE_KEY];
      if (probe) probe.passed = true;
      const send = (sent: SentToken | null) => sendOn(forward, attach(operation, context, sent));
      if (skipsTokenAuth(context)) return send(null);
      const sent = auth.current();
      if (!(sent instanceof Promise)) return send(sent);
      auth.emit?.({ type: 'held', operation: operation.operationName });
      // A link further down that throws at once errors the operation, as it would without the wait.
      return from(sent).pipe(mergeMap(send));
    });
  }
}

// `context`: the operation's, read once (Apollo Client copies it at every read); nothing changes it meanwhile.
function attach(
  operation: ApolloLink.Operation,
  context: { headers?: Record<string, string> },
  sent: SentToken | null,
): ApolloLink.Operation {
  if (sent) {
    operation.setContext({
      headers: { ...context.headers, authorization: `Bearer ${sent.pair.accessToken}` },
      [SENT_TOKEN_KEY]: sent,
    });
  }
  return operation;
}

/** The message of an operation that nothing sends: `auth.link` ended the chain. */
const NOTHING_SENDS =
  'apollo-link-token-pair: auth.link is the last link of the chain, so nothing sends the operation. Put the link ' +
  'that sends it after auth.link: ApolloLink.from([auth.link, new HttpLink({ uri })]).';

// At the end of a chain, Apollo Client's `forward` warns and answers EMPTY: the operation would complete with no
// result, which Apollo Client 4 reports only as a chain that completed without emitting.
function sendOn(forward: ApolloLink.ForwardFunction, operation: ApolloLink.Operation): Observable<ApolloLink.Result> {
  const sent = forward(operation);
  return sent === EMPTY ? throwError(() => new Error(NOTHING_SENDS)) : sent;
}
