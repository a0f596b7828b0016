import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, type DocumentNode } from '@apollo/client';
import { createServiceAuth } from '../../src/service/index.ts';
import type { Journal, OperationRecord } from './Journal.ts';
import type { Person } from './AppTabs.ts';

/**
 * The Node worker: a server-side integration on `apollo-link-token-pair/service` (its own user, as the spec
 * recommends), sending the workload's query every 2 s, and every fifth time its mutation instead (a club of its user renamed).
 */
export async function startServiceWorker(options: {
  uri: string;
  person: Person;
  query: DocumentNode;
  mutation: DocumentNode;
  club: string;
  journal: Journal;
}): Promise<{ stop(): Promise<void> }> {
  const { uri, person, query, mutation, club, journal } = options;
  const auth = createServiceAuth({
    uri,
    credentials: () => person,
    onError: (error) => journal.note('worker-error', String((error as Error).message ?? error), 'worker', 'worker'),
  });
  // Its session as the tabs' probe reports theirs: each change of its state (the schedule), each refresh it ran.
  let seen = '';
  const journalState = () => {
    const state = auth.getState();
    const key = `${state.status}|${state.user?.email}|${state.expiresAt}|${state.refreshAt}|${!!state.retry}`;
    if (key === seen) return;
    seen = key;
    journal.states.push({
      tab: 'worker',
      app: 'worker',
      t: journal.now(),
      status: state.status,
      user: state.user?.email ?? null,
      expiresAt: state.expiresAt ?? null,
      refreshAt: state.refreshAt === undefined ? null : journal.at(state.refreshAt),
      ended: state.ended ? state.ended.reason : null,
      retry: state.retry ? String(state.retry.error.message) : null,
    });
  };
  const unsubscribe = auth.subscribe(journalState);
  const unobserve = auth.observe((event) => {
    if (event.type !== 'refresh') return;
    journal.refreshes.push({
      tab: 'worker',
      app: 'worker',
      t: journal.at(event.at),
      asked: journal.at(event.at - event.ms),
      trigger: event.trigger,
      outcome: event.outcome,
    });
  });
  await auth.start();
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });
  let stopped = false;
  let sent = 0;
  const loop = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (stopped) break;
      const mutating = ++sent % 5 === 0;
      const name = `soak worker ${sent}`;
      const op: OperationRecord = {
        tab: 'worker',
        app: 'worker',
        id: journal.operations.length + 1,
        start: journal.now(),
        ...(mutating && { kind: 'mutation' as const, name }),
      };
      journal.operations.push(op);
      try {
        if (mutating) {
          const { data } = await client.mutate<{ renameClub: { name: string } }>({
            mutation,
            variables: { id: club, name },
          });
          const ok = data?.renameClub.name === name;
          Object.assign(op, {
            end: journal.now(),
            ok,
            screen: person.email,
            ...(!ok && { error: 'renameClub answered without the new name' }),
          });
          continue;
        }
        const { data } = await client.query<{ me: { email: string } }>({ query, fetchPolicy: 'network-only' });
        Object.assign(op, { end: journal.now(), ok: true, user: data?.me.email, screen: person.email });
      } catch (error) {
        Object.assign(op, {
          end: journal.now(),
          ok: false,
          error: String((error as Error).message ?? error),
          screen: person.email,
        });
      }
    }
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      await running;
      client.stop();
      unsubscribe();
      unobserve();
      auth.dispose?.();
    },
  };
}
