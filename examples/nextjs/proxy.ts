// proxy.ts: renews the session's access token (server components cannot set cookies) and hands it to the page.
import { NextResponse, type NextRequest } from 'next/server';
import { tokenHandler } from './lib/tokenHandler';

export async function proxy(request: NextRequest) {
  const { accessToken, setCookie, error } = await tokenHandler.getServerSession(request);
  const headers = new Headers(request.headers);
  headers.delete('x-access-token'); // never trust those the browser sent
  headers.delete('x-session-unknown');
  if (accessToken) headers.set('x-access-token', accessToken);
  // The auth service could not be reached: the page shows the session as being restored, not as signed out.
  else if (error) headers.set('x-session-unknown', '1');
  const response = NextResponse.next({ request: { headers } });
  for (const cookie of setCookie) response.headers.append('set-cookie', cookie);
  return response;
}
// Pages only: not the handler's routes, nor files the browser fetches beside a page (icons, robots.txt…), whose
// requests would renew the session out of turn.
export const config = {
  matcher: ['/((?!auth/|graphql|_next/|favicon.ico|icon|apple-icon|robots.txt|sitemap.xml|manifest).*)'],
};
