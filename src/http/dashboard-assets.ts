// The dashboard's hashed assets (web/dist/assets), sent the way @fastify/static with @fastify/send sent
// them (same headers, ETag form, precompressed variants, conditional and range requests) without loading
// either: the plugin, send, mime and glob were ~2 MB of an idle gateway's memory for a handful of files
// named at build time (issue 16). Only files listed at start are answered; their stat is read once, on
// first request, since they change only with a new build (a restart).
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/vnd.microsoft.icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Precompressed variants written by scripts/compress-web.js, in the order they are preferred. */
const ENCODINGS = [['br', '.br'], ['gzip', '.gz']] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';

interface FileInfo { path: string; size: number; mtimeMs: number; etag: string; lastModified: string }

export class DashboardAssets {
  private readonly infos = new Map<string, Promise<FileInfo | null>>();
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
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    let encoding: string | null = null;
    let file = name;
    for (const [token, suffix] of ENCODINGS) {
      if (accepted.has(token) && this.files.has(name + suffix)) {
        encoding = token;
        file = name + suffix;
        break;
      }
    }
    const info = await this.info(file);
    if (!info) {
      reply.callNotFound();
      return reply;
    }
    const headers: Record<string, string | number> = {
      'accept-ranges': 'bytes',
      'cache-control': IMMUTABLE,
      'last-modified': info.lastModified,
      etag: info.etag,
    };
    const type = TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
    const ifMatch = request.headers['if-match'];
    if (ifMatch !== undefined && !matchesEtag(ifMatch, info.etag, false)) {
      return reply.code(412).headers(common(headers, encoding)).send();
    }
    if (notModified(request, info)) return reply.code(304).headers(common(headers, encoding)).send();
    headers['content-type'] = type;
    let start = 0;
    let length = info.size;
    const range = request.headers.range;
    if (range !== undefined && /^ *bytes=/.test(range) && rangeIsFresh(request, info)) {
      const ranges = parseRanges(info.size, range);
      if (ranges === 'unsatisfiable') {
        return reply.code(416).headers({ 'content-range': `bytes */${info.size}` }).send();
      }
      if (ranges.length === 1) {
        const [first, last] = ranges[0]!;
        headers['content-range'] = `bytes ${first}-${last}/${info.size}`;
        start = first;
        length = last - first + 1;
        reply.code(206);
      }
    }
    headers['content-length'] = length;
    reply.headers(common(headers, encoding));
    // A stream, even an empty one, leaves content-length as set (a HEAD answer states the GET's length).
    if (request.method === 'HEAD' || length === 0) return reply.send(Readable.from([]));
    return reply.send(createReadStream(info.path, { start, end: start + length - 1 }));
  }

  private info(file: string): Promise<FileInfo | null> {
    let info = this.infos.get(file);
    if (!info) {
      const path = join(this.dir, file);
      info = stat(path).then((stats: Stats) => stats.isFile() ? {
        path,
        size: stats.size,
        mtimeMs: stats.mtime.getTime(),
        etag: `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`,
        lastModified: stats.mtime.toUTCString(),
      } : null, () => null);
      this.infos.set(file, info);
    }
    return info;
  }
}

function common(headers: Record<string, string | number>, encoding: string | null): Record<string, string | number> {
  headers['x-content-type-options'] = 'nosniff';
  headers.vary = 'accept-encoding';
  if (encoding) headers['content-encoding'] = encoding;
  return headers;
}

/** The codings an Accept-Encoding header allows (q > 0); `*` stands for gzip, as @fastify/static reads it. */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  if (!header) return accepted;
  for (const part of header.toLowerCase().split(',')) {
    const [token, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (q && !(Number(q[1]) > 0)) continue;
    const name = token!.trim();
    accepted.add(name === '*' ? 'gzip' : name);
  }
  return accepted;
}

function matchesEtag(header: string, etag: string, weak: boolean): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === etag || (weak && `W/${tag}` === etag) || (weak && tag === etag.slice(2));
  });
}

function notModified(request: FastifyRequest, info: FileInfo): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesEtag(ifNoneMatch, info.etag, true);
  const since = request.headers['if-modified-since'];
  if (since === undefined) return false;
  const date = Date.parse(since);
  return Number.isFinite(date) && Math.floor(info.mtimeMs / 1000) * 1000 <= date;
}

function rangeIsFresh(request: FastifyRequest, info: FileInfo): boolean {
  const header = request.headers['if-range'];
  if (header === undefined) return true;
  const ifRange = String(header);
  if (ifRange.includes('"')) return ifRange.includes(info.etag);
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && Math.floor(info.mtimeMs / 1000) * 1000 <= date;
}

/** `bytes=a-b,…` against a file of `size` bytes: satisfiable ranges, or 'unsatisfiable' when none is. */
function parseRanges(size: number, header: string): [number, number][] | 'unsatisfiable' {
  const ranges: [number, number][] = [];
  for (const spec of header.slice(header.indexOf('=') + 1).split(',')) {
    const match = /^\s*(\d*)-(\d*)\s*$/.exec(spec);
    if (!match || (match[1] === '' && match[2] === '')) return []; // malformed: the whole file
    let first: number;
    let last: number;
    if (match[1] === '') {
      first = Math.max(0, size - Number(match[2]));
      last = size - 1;
    } else {
      first = Number(match[1]);
      last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    }
    if (first <= last && first < size) ranges.push([first, last]);
  }
  return ranges.length === 0 ? 'unsatisfiable' : ranges;
}
