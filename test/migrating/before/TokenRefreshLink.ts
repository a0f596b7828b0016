import { ApolloLink } from '@apollo/client';
import { from, mergeMap, Observable, type Observer } from 'rxjs';

// A port to Apollo Client 4 of apollo-link-token-refresh 0.7.0's TokenRefreshLink, which needs Apollo Client 3 (its
// peer range is ^3.0.0): the same logic, a `fetching` flag and a queue of operations copied by hand, with rxjs's
// `from(…).pipe(mergeMap(…))` in place of `fromPromise(…).flatMap(…)`, which Apollo Client 4 removed. Not this
// package's code and not a recommendation: the "before" that docs/migrating.md runs.

type Queued = {
  operation: ApolloLink.Operation;
  forward: ApolloLink.ForwardFunction;
  observer: Observer<ApolloLink.Result>;
};

export declare namespace TokenRefreshLink {
  interface Options<Payload> {
    /** The field of the refresh answer (`body.data[field]` or `body[field]`) handed to `handleFetch`. */
    accessTokenField?: string;
    /** `true` when the stored access token is still good by the client's clock, or there is none. */
    isTokenValidOrUndefined: (operation: ApolloLink.Operation) => Promise<boolean>;
    /** Sends the refresh request. */
    fetchAccessToken: () => Promise<Response>;
    /** Stores what the refresh answered. */
    handleFetch: (payload: Payload, operation: ApolloLink.Operation) => void;
    /** Told when the refresh failed; every queued operation then fails with the same error. */
    handleError?: (error: Error, operation: ApolloLink.Operation) => void;
  }
}

/** apollo-link-token-refresh's TokenRefreshLink, ported to Apollo Client 4 for the migration guide's tests. */
export class TokenRefreshLink<Payload = string> extends ApolloLink {
  private fetching = false;
  private queue: Queued[] = [];

  constructor(private readonly options: TokenRefreshLink.Options<Payload>) {
    super();
  }

  override request(operation: ApolloLink.Operation, forward: ApolloLink.ForwardFunction) {
    return from(this.options.isTokenValidOrUndefined(operation)).pipe(
      mergeMap((valid) => {
        if (valid) return forward(operation);
        if (!this.fetching) {
          this.fetching = true;
          this.options
            .fetchAccessToken()
            .then((response) => response.json() as Promise<Record<string, unknown>>)
            .then((body) => {
              const field = this.options.accessTokenField ?? 'access_token';
              const payload = ((body['data'] as Record<string, unknown> | undefined) ?? body)[field] as Payload;
              if (!payload) throw new Error('[Token Refresh Link]: Unable to retrieve new access token');
              this.options.handleFetch(payload, operation);
              this.fetching = false;
              this.consumeQueue();
            })
            .catch((error: Error) => {
              this.options.handleError?.(error, operation);
              this.fetching = false;
              this.consumeQueue(error);
            });
        }
        return new Observable<ApolloLink.Result>((observer) => {
          this.queue.push({ operation, forward, observer });
        });
      }),
    );
  }

  private consumeQueue(error?: Error) {
    for (const { operation, forward, observer } of this.queue) {
      if (error) observer.error(error);
      else forward(operation).subscribe(observer);
    }
    this.queue = [];
  }
}
