// server.ts: the app in production, on one origin: the token handler's routes under /auth, and the page that
// `npm run build` wrote to dist/. Any server that can mount a Fetch-API or a Node handler does the same.
import { createServer } from 'node:http';
import { createTokenHandler, toNodeHandler } from 'apollo-link-token-pair/server';
import sirv from 'sirv';
import { signIns } from './signIns';

const tokenHandler = toNodeHandler(
  createTokenHandler({
    uri: process.env.GRAPHQL_URL!, // the API's GraphQL endpoint
    secret: process.env.TOKEN_HANDLER_SECRET!, // openssl rand -base64 32
    signIns, // the doors the page's signIn(name, variables) runs: sign-up, a code by e-mail (signIns.ts)
  }),
);
// `single`: a path that is no file gets index.html, for the app's own routes.
const page = sirv('dist', { single: true });

const port = Number(process.env.PORT ?? 3000);
createServer((request, response) => tokenHandler(request, response, () => page(request, response))).listen(
  port,
  '127.0.0.1',
  () => console.log(`listening on http://127.0.0.1:${port}`),
);
