// app/graphql/route.ts: the page's GraphQL requests, passed on to the API. Same origin, so the API needs no CORS.
export async function POST(request: Request) {
  const authorization = request.headers.get('authorization');
  const response = await fetch(process.env.GRAPHQL_URL!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
    body: await request.text(),
  });
  return new Response(response.body, {
    status: response.status,
    headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' },
  });
}
