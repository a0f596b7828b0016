import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { toNodeHandler } from '../../src/server/toNodeHandler';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { SECRET } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const EIGHT_MB = 8 * 1024 * 1024;

async function handler() {
  const upstream = await startDemoServer(cleanups);
  return { upstream, handler: createTokenHandler({ uri: upstream.url, secret: SECRET, cookie: { secure: false } }) };
}

describe('hostile input at the token handler', () => {
  it('an 8 MB login body through toNodeHandler gets 413 before it is read whole, and nothing reaches the upstream', async () => {
    const { upstream, handler: route } = await handler();
    const server = createServer(toNodeHandler(route));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { 'content-type': 'application/json', 'x-token-handler': '1', origin };
    // Declared length, and a stream with none (chunked): both stop at the bound.
    const declared = await fetch(`${origin}/auth/login`, { method: 'POST', headers, body: 'x'.repeat(EIGHT_MB) });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= EIGHT_MB) return controller.close();
        sent += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(120));
      },
    });
    const chunked = await fetch(`${origin}/auth/login`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit).catch((error: unknown) => error);
    if (chunked instanceof Response) expect(chunked.status).toBe(413);
    // The server stopped taking the body in long before its end.
    expect(sent).toBeLessThan(EIGHT_MB);
    expect(upstream.stats.loginCalls).toBe(0);
  });

  it('the Fetch route answers 413 from Content-Length, and from the bytes read, without reading the rest', async () => {
    const { upstream, handler: route } = await handler();
    const origin = 'http://127.0.0.1:3000';
    const headers = { 'content-type': 'application/json', 'x-token-handler': '1', origin };
    const declared = await route(new Request(`${origin}/auth/login`, { method: 'POST', headers, body: 'x'.repeat(EIGHT_MB) }));
    expect(declared.status).toBe(413);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(4096).fill(120));
        if (pulled === 2048) controller.close();
      },
    });
    const streamed = await route(new Request(`${origin}/auth/login`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(20);
    expect(upstream.stats.loginCalls).toBe(0);
  });

  it.each([
    ['fields that are not strings', { email: ['admin@demo.test'], password: { toString: 'x' } }, 400],
    ['prototype keys', JSON.parse('{"__proto__": {"email": "admin@demo.test"}, "constructor": {"prototype": {"password": "x"}}}'), 400],
  ])('%s get 400 and reach nothing upstream', async (_name, body, status) => {
    const { upstream, handler: route } = await handler();
    const origin = 'http://127.0.0.1:3000';
    const answer = await route(
      new Request(`${origin}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-token-handler': '1', origin }, body: JSON.stringify(body) }),
    );
    expect(answer.status).toBe(status);
    expect(upstream.stats.loginCalls).toBe(0);
    expect(({} as Record<string, unknown>)['email']).toBeUndefined();
  });
});
