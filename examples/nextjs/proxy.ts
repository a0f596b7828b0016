// proxy.ts: renews the session's access token (server components cannot set cookies) and hands it to the page.
import { NextResponse, type NextRequest } from 'next/server';
import { tokenHandler } from './lib/tokenHandler';

export async function proxy(request: NextRequest) {
  const { accessToken, setCookie } = await tokenHandler.getServerSession(request);
  const headers = new Headers(request.headers);
  headers.delete('x-access-token'); // never trust one the browser sent
  if (accessToken) headers.set('x-access-token', accessToken);
  const response = NextResponse.next({ request: { headers } });
  for (const cookie of setCookie) response.headers.append('set-cookie', cookie);
  return response;
}
// Pages only: not the handler's routes, nor files the browser fetches beside a page (icons, robots.txt…), whose
// requests would renew the session out of turn.
export const config = { matcher: ['/((?!auth/|graphql|_next/|favicon.ico|icon|apple-icon|robots.txt|sitemap.xml|manifest).*)'] };
