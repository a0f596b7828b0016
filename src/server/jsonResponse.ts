/** A JSON answer of the handler: never cached, with its `Set-Cookie` values and any extra headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  cookies: readonly string[] = [],
  extra: Record<string, string> = {},
): Response {
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...extra,
  });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(JSON.stringify(body), { status, headers });
}
