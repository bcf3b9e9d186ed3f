// Writes a RelayResult to the client, straight to the socket. A whole answer goes out as headers and body
// in one write (Fastify's send pipeline — content-type parsing, serializer checks, onSend hooks we do not
// have — cost ~15 µs a call on the latency path). Streams are written as the relay yields them (no Node
// stream pipeline in between: fewer ticks before the first byte), waiting for 'drain' when the client
// reads slowly. The same writer serves Fastify's routes and the lean lane (src/http/relay-lane.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { RelayResult } from '../relay/relay-types.ts';
import { takeStream, type TakenStream } from './taken-stream.ts';
import { OVERHEAD_HEADER, overheadHeaderValue } from '../relay/upstream-wait.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether answers carry their cost in `x-gateway-cost` (COST_HEADER, on by default). */
    costHeader?: boolean;
  }
}

export type AnswerHeaders = Record<string, string | number | string[] | undefined>;

/** Where a relayed answer goes, whoever received the request. */
export interface AnswerTarget {
  /** The request being answered: a stream's connection is taken off Node's server through it. */
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly requestId: string;
  /** Whether the answer carries its cost (`x-gateway-cost`). */
  readonly costHeader: boolean;
  readonly log: { warn(details: object, message: string): void };
  /** The headers decided before the answer (request id, CORS), in a fresh object the writer may fill. */
  takeHeaders(): AnswerHeaders;
}

/** A Fastify reply as an answer target: Fastify lets go of the response, its headers are carried over. */
export function replyTarget(reply: FastifyReply): AnswerTarget {
  return {
    request: reply.request.raw,
    response: reply.raw,
    requestId: reply.request.id,
    costHeader: reply.server.costHeader !== false,
    log: reply.log,
    takeHeaders() {
      reply.hijack();
      // getHeaders() returns a fresh object (Fastify copies its own and Node's): filled in place, not copied again.
      return reply.getHeaders();
    },
  };
}

/**
 * Writes the answer: a whole answer before this returns, a stream's headers before this returns and its
 * events from then on, by a StreamWriter that handles its own failures (logged; the client sees the answer
 * cut short). A bad header throws here, to the caller. The promise is settled at once: nothing waits on an
 * open stream, so no promise chain is kept per stream through the routes that called this.
 */
export function sendRelayResult(target: AnswerTarget, result: RelayResult): Promise<void> {
  const response = target.response;
  const headers = Object.assign(target.takeHeaders(), result.headers);
  if (result.overheadMs !== undefined) headers[OVERHEAD_HEADER] = overheadHeaderValue(result.overheadMs);
  // A whole answer's cost is known now; a stream's only at its end, so it is sent as an HTTP trailer.
  const costOf = target.costHeader ? result.costMicros : undefined;
  if (result.kind === 'buffer') {
    const cost = costOf?.();
    if (cost !== undefined && cost !== null) headers['x-gateway-cost'] = String(cost);
    headers['content-length'] = String(Buffer.byteLength(result.body));
    response.writeHead(result.status, headers);
    response.end(result.body);
    return DONE;
  }
  // Only chunked framing carries trailers: Node refuses a Trailer header otherwise (an HTTP/1.0 client,
  // whose stream then ends with the connection), which answered such clients 500.
  if (costOf && (response as { useChunkedEncodingByDefault?: boolean }).useChunkedEncodingByDefault !== false) headers.trailer = 'x-gateway-cost';
  // Node builds and checks the head (a bad header throws here); it goes out with the first chunk.
  response.writeHead(result.status, headers);
  keepHeaderFlat(response);
  const sink = takeStream(target.request, response) ?? new ResponseSink(response);
  new StreamWriter(target, result.body, costOf, sink).pull();
  return DONE;
}

const DONE = Promise.resolve();

/**
 * Node keeps the status line and headers it wrote (`_header`) for the response's life, as the rope of
 * ~30 small strings its header writer concatenated (~0.8 KB per open stream). Reading a character makes V8
 * flatten the rope in place into one string: same value, a quarter of the memory.
 */
function keepHeaderFlat(response: ServerResponse): void {
  const header = (response as { _header?: unknown })._header;
  if (typeof header === 'string') header.charCodeAt(header.length - 1);
}

/** Where a stream's chunks go: its connection taken off Node's server (TakenStream), or Node's response. */
type StreamSink = Pick<TakenStream, 'closed' | 'write' | 'whenWritable' | 'end' | 'destroy'>;

/** Node's own path, for what takeStream leaves to it (HTTP/1.0, a pipelined request behind this one). */
class ResponseSink implements StreamSink {
  private readonly response: ServerResponse;

  constructor(response: ServerResponse) {
    this.response = response;
  }

  get closed(): boolean {
    return this.response.destroyed;
  }

  write(chunk: string | Buffer): boolean {
    return this.response.write(chunk);
  }

  whenWritable(callback: () => void): void {
    const response = this.response;
    // Both listeners are removed either way (`Promise.race` over two `once()` left the loser attached, one
    // more per pause, on a long stream).
    const onDrained = () => {
      response.removeListener('drain', onDrained);
      response.removeListener('close', onDrained);
      callback();
    };
    response.on('drain', onDrained);
    response.on('close', onDrained);
  }

  end(cost: string | null): void {
    if (cost !== null) this.response.addTrailers({ 'x-gateway-cost': cost });
    this.response.end();
  }

  destroy(): void {
    this.response.destroy();
  }
}

/**
 * Writes a stream as the relay's generator yields it, waiting when the client reads slowly. One object per
 * open stream with its handlers made once, where an async function with a `for await` kept a suspended
 * frame (its registers, a generator object, the promises and closures of each await).
 */
class StreamWriter {
  private readonly target: AnswerTarget;
  private readonly body: AsyncGenerator<string | Buffer>;
  private readonly costOf: (() => number | null) | undefined;
  private readonly sink: StreamSink;
  /** Made on the first pause for a slow client: most streams never need it. */
  private onDrained: (() => void) | null = null;

  constructor(target: AnswerTarget, body: AsyncGenerator<string | Buffer>, costOf: (() => number | null) | undefined, sink: StreamSink) {
    this.target = target;
    this.body = body;
    this.costOf = costOf;
    this.sink = sink;
  }

  pull(): void {
    this.body.next().then(this.onStep, this.onError);
  }

  private readonly onStep = (step: IteratorResult<string | Buffer>): void => {
    const sink = this.sink;
    if (step.done || sink.closed) return this.finish();
    let written: boolean;
    try {
      written = sink.write(step.value);
    } catch (error) {
      return this.onError(error);
    }
    if (written) return this.pull();
    // A slow client: wait until it has read what is queued, or has gone.
    sink.whenWritable((this.onDrained ??= () => {
      if (this.sink.closed) this.finish();
      else this.pull();
    }));
  };

  private readonly onError = (error: unknown): void => {
    this.warn(error);
    this.finish();
  };

  /** Ends the answer (with the cost trailer) and the generator. */
  private finish(): void {
    const sink = this.sink;
    try {
      if (!sink.closed) {
        const cost = this.costOf?.();
        sink.end(cost === undefined || cost === null ? null : String(cost));
      }
    } catch (error) {
      this.warn(error);
      if (!sink.closed) sink.destroy();
    }
    // The relay's generator records usage in its own finally; make sure it runs when we stopped early.
    this.body.return(undefined).catch((error: unknown) => this.warn(error));
  }

  private warn(error: unknown): void {
    this.target.log.warn({ err: error, requestId: this.target.requestId }, 'stream to the client failed');
  }
}

/** sendRelayResult for a Fastify route: the reply, once the answer is written (a stream's, under way). */
export async function sendRelayReply(reply: FastifyReply, result: RelayResult): Promise<FastifyReply> {
  await sendRelayResult(replyTarget(reply), result);
  return reply;
}
