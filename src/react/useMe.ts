import type { DocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useEffect, useMemo } from 'react';
import { CHAIN_PROBE_KEY, type ChainProbe } from '../internal/index';
import { isUnauthenticatedError } from '../index';
import type { Me } from './AuthContext';

/** The message of a `me` query that went out without passing `auth.link`. */
const CHAIN_SKIPS_AUTH =
  'apollo-link-token-pair: the `me` query was answered without passing auth.link, so it carried no token: ' +
  'auth.link comes before the link that sends operations, ApolloLink.from([auth.link, new HttpLink({ uri })]).';

/**
 * The provider's `me` query for `user` (none while signed out, or when `document` is `false`). It carries a probe
 * that `auth.link` marks: refused unmarked, `auth.link` is not on its way (placed after the link that sends it, or
 * missing), which the server's "not authenticated" would not say, and the console says so.
 */
export function useMe(document: DocumentNode | false, fallback: DocumentNode, user: string | null): Me | null {
  const probe = useMemo<ChainProbe>(() => ({}), [user]);
  const context = useMemo(() => ({ [CHAIN_PROBE_KEY]: probe }), [probe]);
  const { data, error } = useQuery<{ me: Me }>(document || fallback, {
    skip: !user || !document,
    fetchPolicy: 'network-only',
    context,
  });
  // A refusal only, not an outage (a 500, the network): data, and an error, may come from a server render's cache,
  // with no request at all; seed 2 of the soak in a user's browser, 855 s, a page loaded during an API restart.
  const refused = !!error && !!isUnauthenticatedError(error);
  useEffect(() => {
    if (refused && !probe.passed) console.error(CHAIN_SKIPS_AUTH);
  }, [refused, probe]);
  // `me` belongs to the signed-in user only: for another user (a login here or in another tab) it is fetched
  // again by the provider's reset.
  return data?.me?.id === user ? data.me : null;
}
