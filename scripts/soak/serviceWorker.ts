import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, type DocumentNode } from '@apollo/client';
import { createServiceAuth } from '../../src/service/index.ts';
import type { Journal, OperationRecord } from './Journal.ts';
import type { Person } from './AppTabs.ts';

/**
 * The Node worker: a server-side integration on `apollo-link-token-pair/service` (its own user, as the spec
 * recommends), sending the workload's query every 2 s.
 */
export async function startServiceWorker(options: { uri: string; person: Person; query: DocumentNode; journal: Journal }): Promise<{ stop(): Promise<void> }> {
  const { uri, person, query, journal } = options;
  const auth = createServiceAuth({
    uri,
    credentials: () => person,
    onError: (error) => journal.note('worker-error', String((error as Error).message ?? error), 'worker', 'worker'),
  });
  await auth.start();
  const client = new ApolloClient({ link: ApolloLink.from([auth.link, new HttpLink({ uri })]), cache: new InMemoryCache() });
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (stopped) break;
      const op: OperationRecord = { tab: 'worker', app: 'worker', id: journal.operations.length + 1, start: journal.now() };
      journal.operations.push(op);
      try {
        const { data } = await client.query<{ me: { email: string } }>({ query, fetchPolicy: 'network-only' });
        Object.assign(op, { end: journal.now(), ok: true, user: data?.me.email, screen: person.email });
      } catch (error) {
        Object.assign(op, { end: journal.now(), ok: false, error: String((error as Error).message ?? error), screen: person.email });
      }
    }
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      await running;
      client.stop();
      auth.dispose?.();
    },
  };
}
