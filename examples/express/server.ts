// server.ts: the token handler in an Express app, behind a reverse proxy (nginx, a load balancer, a container's
// port mapping) that hands the app another Host than the browser used, and says which in X-Forwarded-Host.
import express from 'express';
import { createTokenHandler, toNodeHandler } from 'apollo-link-token-pair/server';

const tokenHandler = createTokenHandler({
  uri: process.env.GRAPHQL_URL!, // the API's GraphQL endpoint
  secret: process.env.TOKEN_HANDLER_SECRET!, // openssl rand -base64 32
  // The proxy sets X-Forwarded-Host and X-Forwarded-Proto (and overwrites any the browser sent): they name the
  // origin the browser used, which the handler then accepts as its own.
  trustProxy: true,
  // The page's auth.signIn('register', { email, password }) runs this mutation here: the page names the door and
  // never holds a document, and the refresh token of the answer goes into the cookie, never to the page.
  signIns: {
    register: `mutation Register($email: String!, $password: String!) {
      register(email: $email, password: $password) { accessToken refreshToken user { id email role } }
    }`,
  },
});

const app = express();
// POST /auth/login, /auth/sign-in, /auth/refresh and /auth/logout; any other path goes on to the next middleware.
app.use(toNodeHandler(tokenHandler));
// The page's GraphQL requests, passed on to the API: same origin, so the API needs no CORS set-up.
app.post('/graphql', express.text({ type: 'application/json' }), async (request, response) => {
  const upstream = await fetch(process.env.GRAPHQL_URL!, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(request.headers.authorization && { authorization: request.headers.authorization }),
    },
    body: request.body,
  });
  response
    .status(upstream.status)
    .type('application/json')
    .send(await upstream.text());
});
app.use(express.static('public'));

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
