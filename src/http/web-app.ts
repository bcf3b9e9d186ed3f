// Serves the dashboard built into web/dist: hashed assets under /assets/ (cached for a year, immutable,
// sent precompressed when the browser accepts it) and the app's page for each of its client routes.
// Pages are named routes rather than a catch-all, so unknown paths keep their API 404 in the caller's
// error format and /v1, /v1beta and /api are untouched by the app's presence.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DashboardAssets } from './dashboard-assets.ts';

export const DEFAULT_WEB_DIST = join(import.meta.dirname, '..', '..', 'web', 'dist');

/** The client routes of web/src/app/router.tsx; a reload on any of them must land on the app. */
const DASHBOARD_PAGES = [
  '/',
  '/login',
  '/signup',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/keys',
  '/playground',
  '/logs',
  '/usage',
  '/wallet',
  '/settings',
  '/admin',
  '/admin/*',
] as const;

/** Client routes an administrator turns on or off (app.ts says how each is read); known pages either way. */
const OPTIONAL_PAGES = ['/pricing'] as const;

// The app needs nothing from elsewhere; inline styles come from the component library's style props.
// No referrer: the verification and reset pages carry one-time tokens in their address.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Model gateway</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>The dashboard is not built</h1><p>The API works. To build the web dashboard, run <code>npm run build:web</code>
(<code>npm ci</code> does it for you) and restart the gateway.</p></body></html>`;

interface WebAppOptions {
  distDir: string;
  warn: (message: string) => void;
  /** Pages an administrator turns on or off (/pricing): off, the app is sent with 404 and shows Not Found. */
  optionalPages?: Partial<Record<(typeof OPTIONAL_PAGES)[number], () => Promise<boolean>>>;
}

/** The app's page, read once: it is small and changes only with a new build (a restart). */
interface DashboardPage {
  built: boolean;
  page: Buffer;
}

export function loadDashboardPage(options: WebAppOptions): DashboardPage {
  const indexPath = join(options.distDir, 'index.html');
  const built = existsSync(indexPath);
  if (!built) options.warn(`The web dashboard is not built (${indexPath} is missing): run \`npm run build:web\`.`);
  return { built, page: built ? readFileSync(indexPath) : Buffer.from(NOT_BUILT_PAGE) };
}

/** Where the API, relays and assets live: their unknown paths keep the JSON 404 in the caller's format. */
const MACHINE_PREFIXES = ['/v1', '/v1beta', '/api', '/assets', '/healthz', '/metrics'];
const isDashboardPage = (path: string) =>
  [...DASHBOARD_PAGES, ...OPTIONAL_PAGES].some((page) => page === path || (page.endsWith('/*') && path.startsWith(page.slice(0, -1))));

/** The canonical address of a page loaded with trailing slashes (/settings/ → /settings), query kept; else null. */
function withoutTrailingSlash(url: string): string | null {
  const [path = '/', query] = url.split(/\?(.*)/s);
  const trimmed = path.replace(/\/+$/, '');
  // Never an open redirect: //evil.example/ trimmed is still protocol-relative.
  if (trimmed === path || trimmed === '' || trimmed.startsWith('//') || !isDashboardPage(trimmed)) return null;
  return query ? `${trimmed}?${query}` : trimmed;
}

/**
 * A browser opening an address the app does not have (/no/such/page, /pricing) gets the app, which shows
 * its own Not Found page, with status 404; a known page with a trailing slash (/settings/, /pricing/) is
 * redirected to the page (an optional page that is off then shows Not Found there). Only page loads (GET or
 * HEAD asking for HTML) outside the API's paths: an API client's unknown path keeps its JSON 404. Answers
 * whether it answered.
 */
export function answerUnknownPageForBrowser(request: FastifyRequest, reply: FastifyReply, dashboard: DashboardPage): boolean {
  if (!dashboard.built || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  if (!/\btext\/html\b/.test(request.headers.accept ?? '')) return false;
  const path = request.url.split('?')[0]!;
  if (MACHINE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return false;
  const canonical = withoutTrailingSlash(request.url);
  if (canonical) void reply.redirect(canonical, 308);
  else void reply.code(404).headers(PAGE_HEADERS).send(dashboard.page);
  return true;
}

export async function webAppRoutes(app: FastifyInstance, options: WebAppOptions, dashboard: DashboardPage = loadDashboardPage(options)): Promise<void> {
  const { built, page } = dashboard;
  // /admin/* also matches /admin/ and /admin/users/: those too go to their one address without the slash.
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    const canonical = withoutTrailingSlash(request.url);
    return canonical ? reply.redirect(canonical, 308) : reply.code(built ? 200 : 503).headers(PAGE_HEADERS).send(page);
  };
  for (const path of DASHBOARD_PAGES) app.get(path, sendPage);
  for (const [path, isOn] of Object.entries(options.optionalPages ?? {})) {
    app.get(path, async (request, reply) => (built && !(await isOn!()) ? reply.code(404).headers(PAGE_HEADERS).send(page) : sendPage(request, reply)));
  }

  const assets = join(options.distDir, 'assets');
  if (built && existsSync(assets)) {
    // One route for every asset, answering only the files the build wrote (listed once at start): a miss
    // costs no file-system look-up and keeps the API 404. (A route per file, @fastify/static's
    // `wildcard: false`, cost ~6 MB of the idle process for the ~170 files and their compressed copies;
    // the plugin itself ~2 MB more, hence src/http/dashboard-assets.ts.)
    const files = new DashboardAssets(assets, readdirSync(assets));
    app.get('/assets/*', (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      return files.has(name) ? files.send(request, reply, name) : reply.callNotFound();
    });
  }
}
