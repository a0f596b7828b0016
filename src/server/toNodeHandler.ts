import type { IncomingMessage, ServerResponse } from 'node:http';
import { peerAddresses } from './clientAddress';
import { firstValue } from './firstValue';
import { BODY_LIMIT, PAYLOAD_TOO_LARGE } from './readBody';

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Take the scheme and host from `X-Forwarded-Proto` and `X-Forwarded-Host`: only behind a proxy that sets
   * them, as the handler's own origin is the one pages may call from.
   * @defaultValue `false`
   */
  trustProxy?: boolean;
}

/**
 * Adapts a Fetch-API handler (such as `createTokenHandler`'s) to `node:http` and Express: requests under the
 * handler's `basePath` are answered, the others passed to `next` (or answered 404 without one).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 *
 * const handler = createTokenHandler({ uri, secret });
 * app.use(toNodeHandler(handler)); // Express
 * createServer(toNodeHandler(handler)).listen(3000); // node:http
 * ```
 */
export function toNodeHandler(
  handler: ((request: Request) => Promise<Response>) & { readonly basePath?: string },
  options: NodeHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> {
  return async (req, res, next) => {
    try {
      const forwarded = (name: string) => options.trustProxy && firstValue(String(req.headers[name] ?? ''));
      const scheme =
        forwarded('x-forwarded-proto') || ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
      const host = forwarded('x-forwarded-host') || req.headers.host || 'localhost';
      // Express strips a mount path from `url`; `originalUrl` keeps it.
      const url = new URL((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/', `${scheme}://${host}`);
      if (next && handler.basePath && !url.pathname.startsWith(`${handler.basePath}/`)) return next();
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const item of [value ?? []].flat()) headers.append(name, item);
      }
      const tooLarge = () => {
        // Answered before the rest is read; the connection goes, so nothing more of it is taken in.
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ error: PAYLOAD_TOO_LARGE }), () => req.destroy());
      };
      if (Number(req.headers['content-length']) > BODY_LIMIT) return tooLarge();
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readNodeBody(req);
      if (body === null) return tooLarge();
      const request = new Request(url, {
        method: req.method,
        headers,
        ...(body?.length && { body: new Uint8Array(body) }),
      });
      // The client's address for the handler (a Fetch Request has none): the peer, which a browser cannot forge.
      if (req.socket.remoteAddress) peerAddresses.set(request, req.socket.remoteAddress);
      const response = await handler(request);
      // Every header as it is, but `Set-Cookie`, which a Fetch `Headers` would join into one: each cookie on its own.
      const head: Record<string, string | string[]> = Object.fromEntries(response.headers);
      const cookies = response.headers.getSetCookie();
      if (cookies.length) head['set-cookie'] = cookies;
      res.writeHead(response.status, head).end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      if (next) return next(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    }
  };
}

// The body, or `null` once it passes BODY_LIMIT: reading stops there.
function readNodeBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      if ((size += chunk.length) <= BODY_LIMIT) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(null);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
