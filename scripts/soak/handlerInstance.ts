// One token handler instance of the soak, in a process of its own so that it can be killed: the handler through
// toNodeHandler at /auth/*, with the Redis rotation cache every instance shares, and POST /__renew, which renews
// the session of the Cookie header in the body (getServerSession) for the front proxy before it renders a page.
// Its secret is a ring during a rotation: TOKEN_HANDLER_SECRET seals, it and TOKEN_HANDLER_SECRET_OLD open.
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { createRedisRotationCache, createTokenHandler, toNodeHandler } from '../../src/server/index.ts';

const redis = new Redis({ host: '127.0.0.1', port: Number(process.env['REDIS_PORT']), maxRetriesPerRequest: 1 });
// Redis goes away during the soak on purpose: the handler sees each failure on its calls, not as a crash here.
redis.on('error', () => {});
const name = process.env['HANDLER_NAME'] ?? '?';
const tail = (token: unknown) => `…${String(token).slice(-6)}`;
// Each refresh it sends upstream, and each error it reports, as a line the soak journals (`[handler]`): a reuse
// is then traced to the instance and the token.
const logged: typeof fetch = async (input, init) => {
  const sent = JSON.parse(String(init?.body ?? '{}')) as { query?: string; variables?: { token?: string } };
  const response = await fetch(input, init);
  if (!/\brefreshToken\s*\(/.test(sent.query ?? '')) return response;
  const text = await response.clone().text();
  const answer = JSON.parse(text || '{}') as {
    data?: { refreshToken?: { refreshToken?: string } };
    errors?: Array<{ message?: string }>;
  };
  const issued = answer.data?.refreshToken?.refreshToken;
  console.log(
    `[handler] ${name} refreshed ${tail(sent.variables?.token)}: ${issued ? `issued ${tail(issued)}` : `refused: ${answer.errors?.[0]?.message ?? response.status}`}`,
  );
  return response;
};
const handler = createTokenHandler({
  uri: process.env['GRAPHQL_URL']!,
  fetch: logged,
  onError: (error) => console.log(`[handler] ${name} error: ${error.message}`),
  secret: [
    process.env['TOKEN_HANDLER_SECRET']!,
    ...(process.env['TOKEN_HANDLER_SECRET_OLD'] ? [process.env['TOKEN_HANDLER_SECRET_OLD']] : []),
  ],
  cache: createRedisRotationCache(redis),
});
const routes = toNodeHandler(handler);
const server = createServer(async (req, res) => {
  if (req.url === '/__renew' && req.method === 'POST') {
    let cookie = '';
    for await (const chunk of req) cookie += chunk;
    try {
      const session = await handler.getServerSession({ headers: new Headers(cookie ? { cookie } : {}) });
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ setCookie: session.setCookie }));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return void res.end(String(error));
    }
  }
  return routes(req, res, () => {
    res.writeHead(404);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on port ${(server.address() as { port: number }).port}`));
// A deploy stops an instance with SIGTERM: it answers what it is serving before it exits (docs/token-handler.md,
// "Deploying"), since a rotation cut between the API's answer and the cache would leave the refresh token spent
// and its pair with no one. A SIGKILL (the soak's handler-restart) is a crash, and can cut one.
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
});
