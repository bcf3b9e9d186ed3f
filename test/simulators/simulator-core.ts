// The shared machinery of the upstream simulators: an HTTP server on a free port, request recording,
// credential checks and the script queue (documented in simulator-script.ts). With `http2: true` the server
// speaks h2c with prior knowledge (node:http2's compatibility API hands the same handler req/res objects);
// with `tls: true` it serves https with a self-signed certificate, offering h2 and http/1.1 by ALPN when
// `http2` is set too (as real API servers do), http/1.1 alone otherwise.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createH2cServer, createSecureServer as createH2Server } from 'node:http2';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './test-tls-certificate.ts';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseBody, readBody, sendJson, sleep } from './simulator-http.ts';
import { createScriptQueue, type ScriptStep } from './simulator-script.ts';

export type { ScriptStep } from './simulator-script.ts';

export interface RecordedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  /** The body exactly as received (signature checks hash these bytes). */
  rawBody: string;
  /** True when the client went away before the answer was complete (over h2: reset its stream). */
  aborted: boolean;
  /** '1.1', or '2.0' on an h2c simulator. */
  httpVersion: string;
}

export interface Simulator {
  /** http://127.0.0.1:PORT, the host root (no /v1). */
  url: string;
  port: number;
  /** Every request received, in order (empty when started with recordRequests: false). */
  requests: RecordedRequest[];
  /** TCP connections accepted so far (over h2 many requests share one). */
  readonly connectionsAccepted: number;
  /** Queues scripted behaviours for the next requests, one each, in order. */
  script(...steps: ScriptStep[]): void;
  /** Forgets the recorded requests and the queued scripts. */
  reset(): void;
  close(): Promise<void>;
}

export interface SimulatorExchange {
  request: IncomingMessage;
  response: ServerResponse;
  recorded: RecordedRequest;
  step: Readonly<ScriptStep>;
}

export interface ErrorAnswer { status: number; body: unknown; headers?: Record<string, string> }

interface SimulatorDefinition {
  recordRequests?: boolean | undefined;
  /** Serve h2c (HTTP/2 without TLS, prior knowledge) instead of HTTP/1.1; with `tls`, offer h2 by ALPN. */
  http2?: boolean | undefined;
  /** Serve https (test/simulators/test-tls-certificate.ts, self-signed: the client must not verify it). */
  tls?: boolean | undefined;
  /** Returns the error answer when the request's credentials are wrong, or null. */
  checkAuth(exchange: SimulatorExchange): ErrorAnswer | null | Promise<ErrorAnswer | null>;
  /** The provider's error body for a scripted status without a body. */
  errorBody(status: number): unknown;
  handle(exchange: SimulatorExchange): Promise<void> | void;
  /** Takes WebSocket upgrades (the OpenAI simulator's Responses WebSocket mode); absent: none are answered. */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export async function startSimulator(definition: SimulatorDefinition): Promise<Simulator> {
  const requests: RecordedRequest[] = [];
  const queue = createScriptQueue();
  const sockets = new Set<Socket>();
  let connectionsAccepted = 0;
  const record = definition.recordRequests !== false;
  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    const rawUrl = request.url ?? '/';
    const q = rawUrl.indexOf('?');
    const text = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: q < 0 ? rawUrl : rawUrl.slice(0, q),
      query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)),
      headers: request.headers,
      body: parseBody(text),
      rawBody: text,
      aborted: false,
      httpVersion: request.httpVersion,
    };
    if (record) {
      requests.push(recorded);
      // Over h2 a reset stream leaves writableFinished true (the compat response counts its stream's
      // closing as the end); the request's 'aborted' event is what tells a reset from a finished answer.
      if (request.httpVersionMajor === 2) request.once('aborted', () => (recorded.aborted = true));
      else response.once('close', () => {
        if (!response.writableFinished) recorded.aborted = true;
      });
    }
    const step = queue.next();
    const exchange: SimulatorExchange = { request, response, recorded, step };
    try {
      if (step.delayMs) await sleep(step.delayMs);
      if (step.earlyHints) {
        // An interim answer in a packet of its own, before the real one (as CDNs in front of an API send).
        response.writeEarlyHints({ link: '</hint.css>; rel=preload; as=style' });
        await sleep(20);
      }
      if (step.hangUp) {
        request.socket.destroy();
        return;
      }
      const authError = await definition.checkAuth(exchange);
      if (authError) return sendJson(response, authError.status, authError.body, authError.headers);
      if (step.status !== undefined) {
        return sendJson(response, step.status, step.body ?? (step.status >= 300 ? definition.errorBody(step.status) : {}), step.headers);
      }
      await definition.handle(exchange);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, definition.errorBody(500));
      else response.destroy();
      if (!(error instanceof Error && 'code' in error)) console.error('simulator failure', error);
    }
  };
  // The compatibility request/response have the members the handlers use (headers, url, writeHead, write, end…).
  const tls = { key: TEST_TLS_KEY, cert: TEST_TLS_CERT };
  const server = definition.tls
    ? (definition.http2 ? createH2Server({ ...tls, allowHTTP1: true }, handler as never) : createHttpsServer(tls, handler))
    : (definition.http2 ? createH2cServer(handler as never) : createServer(handler));
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 60_000;
  if (definition.upgrade) server.on('upgrade', definition.upgrade);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    connectionsAccepted++;
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${definition.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    get connectionsAccepted() {
      return connectionsAccepted;
    },
    script: (...steps) => queue.push(steps),
    reset() {
      requests.length = 0;
      queue.clear();
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return header !== undefined && header.startsWith('Bearer ') ? header.slice(7) : undefined;
}

/** The value of a header sent once, or undefined. */
export function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
