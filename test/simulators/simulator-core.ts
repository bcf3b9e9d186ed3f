// The shared machinery of the upstream simulators: an HTTP server on a free port, request recording,
// key checks, and a queue of scripted misbehaviours for chaos tests.
//
// Scripting: `sim.script(step, …)` queues steps; each applies to one request, in order, then the default
// behaviour resumes. A step may set:
//   status, headers, body      answer with this status and JSON body instead of the normal answer
//   delayMs                    wait before sending response headers
//   firstChunkDelayMs          (streams) wait before the first event
//   chunkDelayMs               (streams) wait between events, so they leave as separate packets
//   cutStreamAfterChunks: n    (streams) destroy the socket after n events
//   stallAfterChunks: n        (streams) stop sending after n events but keep the connection open
//   malformedChunkAt: n        (streams) send a broken JSON event at position n
//   omitTerminator             (streams) end without [DONE] / message_stop
//   omitUsage                  leave usage out of the answer
//   reply                      the exact assistant text
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptStep {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
  firstChunkDelayMs?: number;
  chunkDelayMs?: number;
  cutStreamAfterChunks?: number;
  stallAfterChunks?: number;
  malformedChunkAt?: number;
  omitTerminator?: boolean;
  omitUsage?: boolean;
  reply?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** True when the client went away before the answer was complete. */
  aborted: boolean;
}

export interface Simulator {
  url: string;
  port: number;
  requests: RecordedRequest[];
  script(...steps: ScriptStep[]): void;
  reset(): void;
  close(): Promise<void>;
}

export interface SimulatorExchange {
  request: IncomingMessage;
  response: ServerResponse;
  recorded: RecordedRequest;
  step: ScriptStep;
}

export interface SimulatorOptions {
  recordRequests?: boolean;
  /** Returns an error answer when the request's credentials are wrong, or null. */
  checkAuth(exchange: SimulatorExchange): { status: number; body: unknown } | null;
  handle(exchange: SimulatorExchange): Promise<void> | void;
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptStep[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://simulator');
    const text = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: parseBody(text),
      aborted: false,
    };
    if (options.recordRequests !== false) requests.push(recorded);
    response.once('close', () => {
      if (!response.writableFinished) recorded.aborted = true;
    });
    const step = queue.shift() ?? {};
    const exchange: SimulatorExchange = { request, response, recorded, step };
    try {
      if (step.delayMs) await sleep(step.delayMs);
      const authError = options.checkAuth(exchange);
      if (authError) return sendJson(response, authError.status, authError.body);
      if (step.status !== undefined) return sendJson(response, step.status, step.body ?? {}, step.headers);
      await options.handle(exchange);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    }
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (...steps) => void queue.push(...steps),
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Writes SSE events, honouring the stream-related script fields. */
export async function sendEventStream(exchange: SimulatorExchange, events: string[], terminator: string | null): Promise<void> {
  const { response, step } = exchange;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...step.headers });
  response.flushHeaders();
  if (step.firstChunkDelayMs) await sleep(step.firstChunkDelayMs);
  for (let i = 0; i < events.length; i++) {
    if (i > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
    if (step.cutStreamAfterChunks !== undefined && i >= step.cutStreamAfterChunks) {
      response.destroy();
      return;
    }
    if (step.stallAfterChunks !== undefined && i >= step.stallAfterChunks) return; // keep the socket open, say nothing
    if (step.malformedChunkAt === i) response.write('data: {"this is": not json\n\n');
    response.write(events[i]);
    if (response.destroyed) return;
  }
  if (terminator !== null && !step.omitTerminator) response.write(terminator);
  response.end();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A crude, deterministic token count: words and punctuation runs. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Splits a reply into stream pieces of a word each, keeping the spaces. */
export function splitIntoPieces(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}
