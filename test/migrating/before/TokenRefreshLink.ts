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
    /** Stores what the refresh answered. Called, not awaited. */
    handleFetch: (payload: Payload, operation: ApolloLink.Operation) => void;
    /** Reads the refresh answer. The default parses JSON and throws on a status of 300 or more. */
    handleResponse?: (
      operation: ApolloLink.Operation,
      accessTokenField: string,
    ) => (response: Response) => Promise<Record<string, unknown>>;
    /** Told when the refresh failed. The queued operations are then sent anyway, with what the store holds. */
    handleError?: (error: Error, operation: ApolloLink.Operation) => void;
  }
}

/** 0.7.0's `parseAndCheckResponse`, in short: the JSON body, or an error for a status of 300 or more. */
const parseAndCheckResponse = () => async (response: Response) => {
  const body = JSON.parse((await response.text()) || '{}') as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`Response not successful: Received status code ${response.status}`);
  return body;
};

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
        if (!this.fetching) this.fetchAccessToken(operation);
        return new Observable<ApolloLink.Result>((observer) => {
          this.queue.push({ operation, forward, observer });
        });
      }),
    );
  }

  private fetchAccessToken(operation: ApolloLink.Operation) {
    const field = this.options.accessTokenField ?? 'access_token';
    const handleResponse = this.options.handleResponse ?? parseAndCheckResponse;
    this.fetching = true;
    this.options
      .fetchAccessToken()
      .then(handleResponse(operation, field))
      .then((body) => {
        const payload = ((body['data'] as Record<string, unknown> | undefined) ?? body)[field] as Payload;
        if (!payload) throw new Error('[Token Refresh Link]: Unable to retrieve new access token');
        this.options.handleFetch(payload, operation);
      })
      .catch((error: Error) => (this.options.handleError ?? console.error)(error, operation))
      .finally(() => {
        this.fetching = false;
        this.consumeQueue();
      });
  }

  private consumeQueue() {
    for (const { operation, forward, observer } of this.queue) forward(operation).subscribe(observer);
    this.queue = [];
  }
}
