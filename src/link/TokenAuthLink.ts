import { ApolloLink } from '@apollo/client';
import { Observable, type Subscription } from 'rxjs';

/** What {@link TokenAuthLink} needs from the session. */
export interface AccessTokenSource {
  /** The token to send now, synchronously when no wait is needed; `null` when signed out. */
  accessToken(): string | null | Promise<string | null>;
}

/** The context key under which {@link TokenAuthLink} records the access token an attempt carried. */
export const SENT_TOKEN_KEY = 'tokenPairSentAccessToken';

export declare namespace TokenAuthLink {
  /** Options of {@link TokenAuthLink}. */
  interface Options {
    /** The session that owns the pair, usually the one inside `createTokenAuth`. */
    auth: AccessTokenSource;
  }
}

/**
 * Sets `Authorization: Bearer <accessToken>` on every operation; sends no header when nobody is logged in.
 *
 * @remarks
 * While the stored pair loads or a refresh is in flight, operations wait for the new token instead of going
 * out with the dying one; an access token that is already dead by the local clock is renewed first. In the
 * common case the token is at hand and the operation is forwarded synchronously, with no promise.
 *
 * `createTokenAuth` builds this link for you as part of `auth.link`.
 */
export class TokenAuthLink extends ApolloLink {
  constructor(options: TokenAuthLink.Options) {
    const { auth } = options;
    super((operation, forward) => {
      const token = auth.accessToken();
      if (!(token instanceof Promise)) return forward(attach(operation, token));
      return new Observable((observer) => {
        let closed = false;
        let sub: Subscription | undefined;
        token
          .then((value) => {
            if (!closed) sub = forward(attach(operation, value)).subscribe(observer);
          })
          .catch((error: unknown) => {
            if (!closed) observer.error(error);
          });
        return () => {
          closed = true;
          sub?.unsubscribe();
        };
      });
    });
  }
}

function attach(operation: ApolloLink.Operation, token: string | null): ApolloLink.Operation {
  if (token !== null) {
    operation.setContext(({ headers }) => ({
      headers: { ...headers, authorization: `Bearer ${token}` },
      [SENT_TOKEN_KEY]: token,
    }));
  } else if (operation.getContext()[SENT_TOKEN_KEY] !== undefined) {
    // A replay after the session ended must not carry the token this link set on the first attempt.
    operation.setContext(({ headers }) => {
      const { authorization: _, ...rest } = (headers ?? {}) as Record<string, string>;
      return { headers: rest, [SENT_TOKEN_KEY]: undefined };
    });
  }
  return operation;
}
