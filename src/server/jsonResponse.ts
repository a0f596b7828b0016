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

/** A refusal's JSON answer, `{ error: { code, message } }` (see `TokenHandlerError`), with its `Set-Cookie` values. */
export const errorResponse = (status: number, code: string, message: string, cookies?: readonly string[]): Response =>
  jsonResponse(status, { error: { code, message } }, cookies);
