import { ApolloLink, type DefaultContext } from '@apollo/client';
import { describe, expect, it, vi } from 'vitest';
import { SKIP_TOKEN_AUTH } from '../../src';
import { TokenAuthLink } from '../../src/link/TokenAuthLink';
import { TokenExpiredLink } from '../../src/link/TokenExpiredLink';
import { asAuth, createServerLink, execute } from '../helpers/links';

function chain(token: () => string | null | Promise<string | null>) {
  const server = createServerLink();
  const recover = vi.fn(async () => {});
  const source = { accessToken: token, recover };
  const link = ApolloLink.from([
    new TokenExpiredLink({ auth: asAuth(source) }),
    new TokenAuthLink({ auth: asAuth(source) }),
    server.link,
  ]);
  return { server, recover, link };
}

describe('context: { skipTokenAuth: true }', () => {
  it('sends no Authorization header, and does not ask the session for a token', async () => {
    const token = vi.fn(() => 'a');
    const { server, link } = chain(token);
    const run = execute(link, {}, { [SKIP_TOKEN_AUTH]: true });
    await run.done;
    expect(server.attempts).toEqual([{ authorization: undefined, variables: {} }]);
    expect(token).not.toHaveBeenCalled();
    expect(run.completed).toBe(true);
  });

  it('never waits for a token being renewed', async () => {
    const { server, link } = chain(() => new Promise<string>(() => {}));
    const run = execute(link, {}, { skipTokenAuth: true });
    await run.done;
    expect(run.results).toHaveLength(1);
    expect(server.attempts).toHaveLength(1);
  });

  it('passes a refusal on as it came: no recovery, no replay', async () => {
    const { server, recover, link } = chain(() => 'a');
    server.expired.add('a');
    const run = execute(link, {}, { skipTokenAuth: true, headers: { authorization: 'Bearer a' } });
    await run.done;
    expect(recover).not.toHaveBeenCalled();
    expect(server.attempts).toHaveLength(1);
    expect(run.results[0]?.errors?.[0]?.extensions?.['code']).toBe('TOKEN_EXPIRED');
  });

  it('is typed on Apollo Client 4 DefaultContext', () => {
    const context: DefaultContext = { skipTokenAuth: true };
    // @ts-expect-error a boolean, not any value
    const wrong: DefaultContext = { skipTokenAuth: 'yes' };
    expect([context, wrong]).toHaveLength(2);
  });
});
