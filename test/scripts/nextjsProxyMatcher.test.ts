import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Found by the soak (30 minutes, seed 3, at 475 s): a favicon request ran examples/nextjs's proxy, which renewed the
// session of its cookie a moment after a handler instance had renewed it for the page: the refresh token spent
// twice. The proxy's matcher (a path-to-regexp pattern that is a plain regular expression here) is read from the
// example as it ships.
const source = readFileSync(new URL('../../examples/nextjs/proxy.ts', import.meta.url), 'utf8');
const matcher = /matcher: \['(.+?)'\]/.exec(source)![1]!;
const runsFor = (path: string) => new RegExp(`^${matcher}$`).test(path);

describe("examples/nextjs's proxy", () => {
  it.each(['/', '/clubs', '/account/settings'])('runs for the page %s', (path) => {
    expect(runsFor(path)).toBe(true);
  });

  it.each([
    '/icon.svg',
    '/apple-icon.png',
    '/favicon.ico',
    '/robots.txt',
    '/sitemap.xml',
    '/manifest.webmanifest',
    '/auth/refresh',
    '/graphql',
    '/_next/static/chunks/app.js',
  ])('does not run for %s, which the browser fetches beside a page or the handler serves', (path) => {
    expect(runsFor(path)).toBe(false);
  });
});
