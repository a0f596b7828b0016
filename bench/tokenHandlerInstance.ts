// One token handler instance of the load benchmark, in a process of its own so that its CPU is its own: the
// handler through toNodeHandler, the Redis rotation cache, and two routes for the benchmark only: GET /__cpu
// (this process's CPU time) and POST /__render (getServerSession for the Cookie header in the body).
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { createRedisRotationCache, createTokenHandler, toNodeHandler } from '../src/server/index.ts';

const handler = createTokenHandler({
  uri: process.env['GRAPHQL_URL']!,
  secret: process.env['SECRET']!,
  cache: createRedisRotationCache(new Redis({ host: '127.0.0.1', port: Number(process.env['REDIS_PORT']) })),
});
const routes = toNodeHandler(handler);
const server = createServer(async (req, res) => {
  if (req.url === '/__cpu') return void res.end(JSON.stringify(process.cpuUsage()));
  if (req.url === '/__render') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const session = await handler.getServerSession({ headers: new Headers({ cookie: body }) });
    return void res.end(JSON.stringify({ ok: !!session.accessToken }));
  }
  return routes(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as { port: number }).port}`));
