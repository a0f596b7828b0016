import { ApolloLink, type ApolloClient, gql } from '@apollo/client';
import { Observable } from 'rxjs';

export const QUERY = gql`
  query Me {
    me {
      id
    }
  }
`;

export const expiredResult = () => ({
  data: null,
  errors: [{ message: 'Token expired', extensions: { code: 'TOKEN_EXPIRED' } }],
});

/** Runs one operation through `link` (with `context`, if any) and records how it settles. */
export function execute(
  link: ApolloLink,
  variables: Record<string, unknown> = {},
  context: Record<string, unknown> = {},
) {
  const results: ApolloLink.Result[] = [];
  const run = {
    results,
    error: undefined as unknown,
    settled: false,
    completed: false,
    done: undefined as unknown as Promise<void>,
  };
  let finish!: () => void;
  run.done = new Promise((resolve) => (finish = resolve));
  const subscription = ApolloLink.execute(
    link,
    { query: QUERY, variables, context },
    { client: {} as ApolloClient },
  ).subscribe({
    next: (result) => results.push(result),
    error: (error: unknown) => {
      run.error = error;
      run.settled = true;
      finish();
    },
    complete: () => {
      run.completed = true;
      run.settled = true;
      finish();
    },
  });
  return Object.assign(run, { subscription });
}

/**
 * A terminating link that stands in for the server: it records the Authorization header of every attempt and
 * answers `TOKEN_EXPIRED` for tokens in `expired`, data otherwise, after a microtask (or when `hold` releases).
 */
export function createServerLink() {
  const attempts: Array<{ authorization: string | undefined; variables: Record<string, unknown> }> = [];
  const expired = new Set<string>();
  const held: Array<() => void> = [];
  let hold = false;
  let unsubscribed = 0;
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const authorization = (operation.getContext().headers as Record<string, string> | undefined)?.authorization;
        attempts.push({ authorization, variables: operation.variables });
        let closed = false;
        const answer = () => {
          if (closed) return;
          const token = authorization?.replace(/^Bearer /, '');
          observer.next(token && expired.has(token) ? expiredResult() : { data: { me: { id: 'u_1', token } } });
          observer.complete();
        };
        if (hold) held.push(answer);
        else queueMicrotask(answer);
        return () => {
          closed = true;
          unsubscribed++;
        };
      }),
  );
  return {
    link,
    attempts,
    expired,
    get unsubscribed() {
      return unsubscribed;
    },
    /** While true, answers wait for {@link release}. */
    set hold(value: boolean) {
      hold = value;
    },
    /** Sends the first `count` held answers (all by default), in the order the attempts arrived. */
    release(count = held.length) {
      for (const answer of held.splice(0, count)) answer();
    },
  };
}

const EPOCH = {};

/**
 * The links' view of a stand-in session whose token is a plain string: each attempt carries the token in one
 * epoch, and `recover` receives the token the failed attempt carried.
 */
export function asAuth(source: {
  accessToken(): string | null | Promise<string | null>;
  recover?: (usedToken: string | undefined) => Promise<void>;
}) {
  const sent = (token: string | null) => (token === null ? null : { pair: { accessToken: token }, epoch: EPOCH });
  return {
    current() {
      const token = source.accessToken();
      return token instanceof Promise ? token.then(sent) : sent(token);
    },
    recover: (attempt: { pair: { accessToken: string } } | undefined) => source.recover!(attempt?.pair.accessToken),
  };
}
