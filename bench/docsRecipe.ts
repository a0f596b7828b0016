import { ApolloLink } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { from, switchMap } from 'rxjs';

/** The token state the recipe keeps: a mutable pair and a refresh that replaces it. */
export interface RecipeTokens {
  accessToken: string;
  refreshToken: string;
  /** Renews the pair; rejects when the service refuses. Called once per failed operation, as the recipe does. */
  refresh(): Promise<void>;
}

/**
 * The Apollo Client 4 docs recipe the package is compared with: `SetContextLink` for the header and an
 * `ErrorLink` that refreshes on `TOKEN_EXPIRED` and retries, with no coordination between operations.
 */
export function createDocsRecipeLink(tokens: RecipeTokens, terminating: ApolloLink): ApolloLink {
  const authLink = new SetContextLink((prevContext) => ({
    headers: { ...prevContext.headers, authorization: `Bearer ${tokens.accessToken}` },
  }));
  const errorLink = new ErrorLink(({ error, operation, forward }) => {
    if (!CombinedGraphQLErrors.is(error)) return;
    if (!error.errors.some((graphqlError) => graphqlError.extensions?.['code'] === 'TOKEN_EXPIRED')) return;
    return from(tokens.refresh()).pipe(switchMap(() => forward(operation)));
  });
  return ApolloLink.from([errorLink, authLink, terminating]);
}

const LOGIN = `mutation Login($email: String!, $password: String!) {
  loginWithEmailPassword(email: $email, password: $password) { accessToken refreshToken }
}`;
const REFRESH = `mutation Refresh($token: String!) { refreshToken(token: $token) { accessToken refreshToken } }`;

/** Logs in over HTTP the way a hand-rolled client does, and returns its naive refresh state. */
export async function loginWithRecipe(uri: string, email: string, password: string): Promise<RecipeTokens> {
  const pair = await postMutation(uri, 'loginWithEmailPassword', LOGIN, { email, password });
  const tokens: RecipeTokens = {
    ...pair,
    async refresh() {
      const next = await postMutation(uri, 'refreshToken', REFRESH, { token: tokens.refreshToken });
      tokens.accessToken = next.accessToken;
      tokens.refreshToken = next.refreshToken;
    },
  };
  return tokens;
}

async function postMutation(
  uri: string,
  field: string,
  query: string,
  variables: Record<string, string>,
): Promise<{ accessToken: string; refreshToken: string }> {
  const response = await fetch(uri, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: Record<string, { accessToken: string; refreshToken: string } | null> | null;
    errors?: Array<{ message: string }>;
  };
  const pair = body.data?.[field];
  if (!pair) throw new Error(`${field} failed: ${body.errors?.[0]?.message ?? `HTTP ${response.status}`}`);
  return pair;
}
