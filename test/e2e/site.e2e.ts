// The documentation site (VitePress over docs/, npm run docs:build) in Chromium: every guide page of the build
// opens with no console error, every link within the site reaches a page that exists and an anchor that exists on
// it, every image loads, and the local search finds TOKEN_EXPIRED. The API reference's pages (TypeDoc's, whose
// links TypeDoc itself checks) are read as built, for their links and anchors: 153 of the 180 pages, which took
// 80 of the test's 108 s in Chromium. Screenshots of the home page, a guide and the
// search go to test-output/site-*.png. The site is built first when docs/.vitepress/dist is missing or older
// than a page of docs/ (CI builds it just before, in .ci/run).
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const DIST = join(DOCS, '.vitepress', 'dist');
const OUTPUT = join(ROOT, 'test-output');
/** Pages open this many at a time, in one browser context. */
const PARALLEL = 3;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Every file under `dir`, skipping the folders named in `skip`. */
function filesUnder(dir: string, skip: string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(path) ? [] : filesUnder(path, skip);
    return [path];
  });
}

/** Whether the build is missing or older than a source of it (a page, an image, llms.txt, the config). */
function siteIsStale(): boolean {
  const built = join(DIST, 'hashmap.json');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const sources = filesUnder(DOCS, [DIST, join(DOCS, '.vitepress', 'cache')]);
  return sources.some((file) => statSync(file).mtimeMs > builtAt);
}

function buildSite(): void {
  const build = spawnSync('npm', ['run', 'docs:build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run docs:build failed:\n${build.stdout}\n${build.stderr}`);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The build as a static server on 127.0.0.1 (an ephemeral port): `/` is index.html, a miss is 404.html. */
async function serveSite(): Promise<Server> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://site').pathname);
    const file = join(DIST, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(DIST + sep) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404, { 'content-type': TYPES['.html'] });
      createReadStream(join(DIST, '404.html')).pipe(response);
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** What one page of the site holds, as Chromium rendered it. */
interface Visit {
  errors: string[];
  links: { href: string; text: string }[];
  ids: string[];
  brokenImages: string[];
}

async function visit(page: Page, url: string): Promise<Visit> {
  const errors: string[] = [];
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  };
  const onError = (error: Error) => errors.push(`page error: ${error.message}`);
  const onResponse = (response: { status(): number; url(): string }) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onError);
  page.on('response', onResponse);
  try {
    await page.goto(url, { waitUntil: 'load' });
    // Vue marks the root once the server-rendered page is hydrated: a mismatch has been reported by then.
    await page.waitForFunction(() => '__vue_app__' in (document.getElementById('app') ?? {}));
    const found = await page.evaluate(() => ({
      links: [...document.querySelectorAll('a[href]')].map((a) => ({
        href: (a as HTMLAnchorElement).href,
        text: (a.textContent ?? '').trim().slice(0, 60),
      })),
      ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
      brokenImages: [...document.images]
        .filter((image) => !image.complete || image.naturalWidth === 0)
        .map((image) => image.getAttribute('src') ?? ''),
    }));
    return { errors, ...found };
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
    page.off('response', onResponse);
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };
const unescape = (text: string) => text.replace(/&(amp|quot|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);

/** A page of the API reference as built (server-rendered by VitePress): its links, ids and images, no browser. */
function readBuilt(url: string): Visit {
  const html = readFileSync(join(DIST, decodeURIComponent(new URL(url).pathname)), 'utf8');
  const all = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => unescape(match[1]!));
  const images = all(/<img\s[^>]*src="([^"]*)"/g).map((src) => new URL(src, url));
  return {
    errors: [],
    links: all(/<a\s[^>]*href="([^"]*)"/g).map((href) => ({ href: new URL(href, url).href, text: href })),
    ids: all(/\sid="([^"]*)"/g),
    brokenImages: images
      .filter((image) => image.origin === new URL(url).origin && !existsSync(join(DIST, image.pathname)))
      .map((image) => image.pathname),
  };
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUTPUT, `site-${name}.png`) });
}

describe('the documentation site', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    if (siteIsStale()) buildSite();
    mkdirSync(OUTPUT, { recursive: true });
    server = await serveSite();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: VIEWPORTS[0]! });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('opens every guide page with no error, every link and anchor within the site resolves, and every image loads', async () => {
    const pages = filesUnder(DIST)
      .filter((file) => file.endsWith('.html') && !file.endsWith(`${sep}404.html`))
      .map((file) => `/${relative(DIST, file).split(sep).join('/')}`)
      .sort();
    expect(pages.length).toBeGreaterThan(100);

    const visits = new Map<string, Visit>();
    const reference = pages.filter((path) => path.startsWith('/api/'));
    for (const path of reference) visits.set(path, readBuilt(origin + path));
    const guide = pages.filter((path) => !path.startsWith('/api/'));
    expect(reference.length).toBeGreaterThan(100);
    expect(guide.length).toBeGreaterThan(20);
    const queue = [...guide];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const page = await context.newPage();
        for (let path = queue.shift(); path; path = queue.shift()) visits.set(path, await visit(page, origin + path));
        await page.close();
      }),
    );

    const problems: string[] = [];
    for (const [path, { errors, links, brokenImages }] of visits) {
      for (const error of errors) problems.push(`${path}: ${error}`);
      for (const image of brokenImages) problems.push(`${path}: image does not load: ${image}`);
      for (const { href, text } of links) {
        const target = new URL(href);
        if (target.origin !== origin) continue;
        const targetPath = target.pathname.endsWith('/') ? `${target.pathname}index.html` : target.pathname;
        const file = join(DIST, decodeURIComponent(targetPath));
        if (!existsSync(file) || statSync(file).isDirectory()) {
          problems.push(`${path}: link "${text}" to ${target.pathname}: no such page`);
          continue;
        }
        const anchor = decodeURIComponent(target.hash.slice(1));
        if (!anchor) continue;
        const ids = visits.get(targetPath)?.ids;
        if (!ids) problems.push(`${path}: link "${text}" to ${target.pathname}#${anchor}: not a page`);
        else if (!ids.includes(anchor)) problems.push(`${path}: link "${text}": no #${anchor} on ${target.pathname}`);
      }
    }
    console.log(`site: ${visits.size} pages checked, ${guide.length} in Chromium`);
    expect(problems).toEqual([]);
  }, 300_000);

  it('serves llms.txt at the root', async () => {
    const response = await fetch(`${origin}/llms.txt`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^# apollo-link-token-pair/);
  });

  it('finds TOKEN_EXPIRED with the local search and lands on a page about it; screenshots at two sizes', async () => {
    const page = await context.newPage();
    try {
      for (const viewport of VIEWPORTS) {
        const size = `${viewport.width}x${viewport.height}`;
        await page.setViewportSize(viewport);
        await page.goto(`${origin}/`);
        await screenshot(page, `home-${size}`);
        await page.goto(`${origin}/react.html`);
        await screenshot(page, `react-${size}`);

        await page.locator('.VPNavBar .DocSearch-Button').click();
        const input = page.locator('#localsearch-input');
        await input.fill('TOKEN_EXPIRED');
        const first = page.locator('#localsearch-list a.result').first();
        await first.waitFor();
        expect(await first.innerText()).toMatch(/TOKEN_EXPIRED/);
        await screenshot(page, `search-${size}`);
        if (viewport !== VIEWPORTS[0]) continue;

        const href = await first.getAttribute('href');
        await first.click();
        await page.waitForURL((url) => href !== null && url.href.endsWith(href));
        await expect.poll(() => page.locator('.vp-doc').innerText()).toContain('TOKEN_EXPIRED');
        await page.keyboard.press('Control+k');
        await page.locator('#localsearch-input').waitFor();
        await page.keyboard.press('Escape');
      }
    } finally {
      await page.close();
    }
  });
});
