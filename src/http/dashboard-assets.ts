// The dashboard's hashed assets (web/dist/assets), answered as @fastify/static answered them (`preCompressed`,
// immutable for a year) but without the plugin: only files listed at start are answered, and the libraries
// that do the HTTP work — @fastify/send (ETag, Last-Modified, conditional and range requests, HEAD) and
// @fastify/accept-negotiator (Accept-Encoding) — are loaded at the first asset request, so an idle gateway
// or one nobody opens the dashboard of does not hold them (~2 MB with the plugin; issue 16,
// docs/decisions/0005-dashboard-assets-and-websocket-without-plugins.md).
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Precompressed variants written by scripts/compress-web.js, in the order they are preferred. */
const ENCODINGS = ['br', 'gzip'] as const;
const SUFFIX: Record<(typeof ENCODINGS)[number], string> = { br: '.br', gzip: '.gz' };
const YEAR_MS = 365 * 24 * 3600 * 1000;

type Libraries = { send: typeof import('@fastify/send'); negotiate: typeof import('@fastify/accept-negotiator').negotiate };
let libraries: Promise<Libraries> | null = null;
const loadLibraries = () => (libraries ??= Promise.all([import('@fastify/send'), import('@fastify/accept-negotiator')])
  .then(([send, negotiator]) => ({ send: send.default, negotiate: negotiator.default.negotiate })));

export class DashboardAssets {
  private readonly dir: string;
  private readonly files: ReadonlySet<string>;

  constructor(dir: string, files: Iterable<string>) {
    this.dir = dir;
    this.files = new Set(files);
  }

  has(name: string): boolean {
    return this.files.has(name);
  }

  /** Answers GET/HEAD /assets/<name> for a listed file. */
  async send(request: FastifyRequest, reply: FastifyReply, name: string): Promise<FastifyReply> {
    const { send, negotiate } = await loadLibraries();
    const encoding = preferredEncoding(negotiate, request.headers['accept-encoding'], (token) => this.files.has(name + SUFFIX[token]));
    const file = encoding ? name + SUFFIX[encoding] : name;
    // The name was checked against the listing: no path from the client reaches the file system.
    const { statusCode, headers, stream, type } = await send(request.raw, `/${encodeURIComponent(file)}`, {
      root: this.dir, immutable: true, maxAge: YEAR_MS, index: false, dotfiles: 'deny', contentType: encoding === null,
    });
    // A missing file keeps the API's JSON 404; send's other refusals (412, 416 with its Content-Range) go
    // out as send wrote them.
    if (type === 'directory' || (type === 'error' && statusCode === 404)) {
      reply.callNotFound();
      return reply;
    }
    reply.code(statusCode).headers(headers).header('x-content-type-options', 'nosniff').header('vary', 'accept-encoding');
    if (encoding && type === 'file') reply.header('content-type', contentTypeOf(send, name)).header('content-encoding', encoding);
    return reply.send(stream);
  }
}

/** The best precompressed variant the client accepts and the build wrote; `*` counts as gzip, as @fastify/static reads it. */
function preferredEncoding(negotiate: Libraries['negotiate'], header: string | undefined, exists: (token: (typeof ENCODINGS)[number]) => boolean): (typeof ENCODINGS)[number] | null {
  if (!header) return null;
  const available = ENCODINGS.filter(exists);
  if (available.length === 0) return null;
  return (negotiate(header.toLowerCase().replace(/\*/g, 'gzip'), [...available]) as (typeof ENCODINGS)[number] | undefined) ?? null;
}

/** The original file's type (a .br or .gz variant is sent as what it decompresses to). */
function contentTypeOf(send: Libraries['send'], name: string): string {
  const type = send.mime.getType(name) ?? 'application/octet-stream';
  return send.isUtf8MimeType(type) ? `${type}; charset=utf-8` : type;
}
