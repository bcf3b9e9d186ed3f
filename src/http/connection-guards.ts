// Slow and abusive clients at the connection level: time limits on receiving a request, a cap on the
// connections one address (or everyone) may hold open, and every answer Node itself would give (400, 408,
// 413, 414, 417, 431, CONNECT) rendered in the caller's error envelope instead of Node's bare defaults.
// Without these, 1,100 connections trickling a body a byte at a time stayed open forever and, at the
// process's 1,024 open files, starved every other client.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { compileIpAllowlist, unmapIpv4 } from '../accounts/ip-allowlist.ts';
import { type GatewayError, invalidRequest, gatewayError } from '../gateway-errors.ts';
import { errorFormatForUrl, renderError } from './error-formats.ts';

export interface ConnectionLimits {
  /** Longest time to receive a request's headers (Node answers 408 after it). */
  headersTimeoutMs: number;
  /** Longest time to receive a whole request, headers and body (408 after it). */
  requestTimeoutMs: number;
  /** Longest silence while a request body is arriving (the connection is closed). */
  bodyIdleTimeoutMs: number;
  /** Idle time allowed between two requests on a keep-alive connection. */
  keepAliveTimeoutMs: number;
  /** Open connections per client address; 0 for no limit. */
  maxConnectionsPerIp: number;
  /** Open connections in all; 0 for no limit. */
  maxConnections: number;
  /** Addresses exempt from the per-address cap (trusted proxies carry many clients). */
  exemptAddresses: string[];
}

export function installConnectionGuards(app: FastifyInstance, limits: ConnectionLimits): void {
  const server = app.server;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Node checks those two timeouts on this interval (30 s by default, which would triple a short limit).
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.max(50, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerIp > 0) capConnectionsPerAddress(server, limits.maxConnectionsPerIp, limits.exemptAddresses);

  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    // Node's default is an empty 417; only `Expect: 100-continue` is meaningful to us.
    writeErrorResponse(response, request.url ?? '/', request.headers, gatewayError('GW_ERR_EXPECTATION_FAILED', {
      message: `The Expect header '${String(request.headers.expect).slice(0, 64)}' is not supported; only '100-continue' is.`,
      code: 'expectation_failed',
    }));
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    // Without a listener Node drops the socket without a word: answer like for any unknown method.
    writeRawError(socket, request.url ?? '/', request.headers, gatewayError('GW_ERR_METHOD_NOT_ALLOWED', {
      message: 'CONNECT is not supported: this is an API gateway, not a proxy.',
      code: 'method_not_allowed',
    }));
  });

  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    // Only while a body is arriving: the answer may legitimately take minutes of silence (a long
    // non-streamed completion), and keep-alive idleness has its own timeout.
    const hasBody = (raw.headers['content-length'] !== undefined && raw.headers['content-length'] !== '0') || raw.headers['transfer-encoding'] !== undefined;
    if (hasBody) {
      const socket = raw.socket;
      socket.setTimeout(limits.bodyIdleTimeoutMs);
      raw.once('end', () => {
        if (!reply.raw.writableFinished && !socket.destroyed) socket.setTimeout(0);
      });
    }
    done();
  });
}

/** Node's own client errors (malformed request line or headers, oversized headers, timeouts) in our envelope. */
export function handleClientError(cause: Error, socket: Socket): void {
  const error = cause as NodeJS.ErrnoException & { rawPacket?: Buffer };
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already under way on this socket (sent before the request was complete): nothing can follow it.
  if ((socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) return void socket.destroy();
  const gatewayError = clientErrorFor(error);
  // The request line, when it could be read, tells which format the caller speaks.
  const firstLine = error.rawPacket?.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  const url = firstLine.split(' ')[1] ?? '/';
  writeRawError(socket, url, {}, gatewayError);
}

function clientErrorFor(error: NodeJS.ErrnoException): GatewayError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return gatewayError('GW_ERR_CLIENT_TIMEOUT', {
        message: 'The request was not received in time (headers or body too slow); the connection is closed.',
        code: 'request_timeout',
      });
    case 'HPE_HEADER_OVERFLOW':
      return gatewayError('GW_ERR_HEADERS_TOO_LARGE', {
        message: 'The request headers (or URL) are larger than the server accepts (16 KB).',
        code: 'request_header_fields_too_large',
      });
    default:
      return invalidRequest(`The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`, null, 'malformed_http');
  }
}

function writeErrorResponse(response: ServerResponse, url: string, headers: IncomingMessage['headers'], error: GatewayError): void {
  const rendered = renderError(errorFormatForUrl(url, headers), error);
  response.writeHead(rendered.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(rendered.body), connection: 'close', ...rendered.headers });
  response.end(rendered.body);
}

function writeRawError(socket: Duplex, url: string, headers: IncomingMessage['headers'], error: GatewayError): void {
  const rendered = renderError(errorFormatForUrl(url, headers), error);
  if (!socket.writable) return void socket.destroy();
  const extra = Object.entries(rendered.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${rendered.status} ${STATUS_TEXT[rendered.status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(rendered.body)}\r\nconnection: close\r\n${extra}\r\n${rendered.body}`);
  // A client that never reads its answer must not hold the socket either.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function capConnectionsPerAddress(server: FastifyInstance['server'], max: number, exempt: string[]): void {
  const trusted = compileIpAllowlist(exempt);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = unmapIpv4(socket.remoteAddress ?? '');
    if (address === '' || trusted.allows(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      // Refused at once, like Node's own maxConnections: answering would need the request read first.
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** How long a refused request's remaining body is read and discarded before the socket is closed. */
const LINGER_MS = 5_000;

/**
 * After an error answered before the body was read (413 on Content-Length, a parse error), Node closes the
 * socket at once; the client, still writing, then gets a reset (EPIPE) and may never read the 413. Instead:
 * send the answer and FIN, keep discarding what the client still sends for a few seconds, then close.
 */
export function lingerBeforeClose(request: IncomingMessage): void {
  if (request.complete) return;
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (socket.destroyed || (socket as { lingering?: boolean }).lingering) return;
  (socket as { lingering?: boolean }).lingering = true;
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    // Discard what the client is still sending (Node's parser reads and drops the rest of the body).
    this.resume();
  };
}
