// Writes a RelayResult to the client, straight to the socket. A whole answer goes out as headers and body
// in one write (Fastify's send pipeline — content-type parsing, serializer checks, onSend hooks we do not
// have — cost ~15 µs a call on the latency path). Streams are written as the relay yields them (no Node
// stream pipeline in between: fewer ticks before the first byte), waiting for 'drain' when the client
// reads slowly. The same writer serves Fastify's routes and the lean lane (src/http/relay-lane.ts).
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { RelayResult } from '../relay/relay-types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether answers carry their cost in `x-gateway-cost` (COST_HEADER, on by default). */
    costHeader?: boolean;
  }
}

export type AnswerHeaders = Record<string, string | number | string[] | undefined>;

/** Where a relayed answer goes, whoever received the request. */
export interface AnswerTarget {
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

export async function sendRelayResult(target: AnswerTarget, result: RelayResult): Promise<void> {
  const response = target.response;
  const headers = Object.assign(target.takeHeaders(), result.headers);
  // A whole answer's cost is known now; a stream's only at its end, so it is sent as an HTTP trailer.
  const costOf = target.costHeader ? result.costMicros : undefined;
  if (result.kind === 'buffer') {
    const cost = costOf?.();
    if (cost !== undefined && cost !== null) headers['x-gateway-cost'] = String(cost);
    headers['content-length'] = String(Buffer.byteLength(result.body));
    response.writeHead(result.status, headers);
    response.end(result.body);
    return;
  }
  if (costOf) headers.trailer = 'x-gateway-cost';
  response.writeHead(result.status, headers);
  try {
    for await (const chunk of result.body) {
      if (response.destroyed) break;
      if (!response.write(chunk)) await drainedOrClosed(response);
    }
  } catch (error) {
    target.log.warn({ err: error, requestId: target.requestId }, 'stream to the client failed');
  } finally {
    if (!response.destroyed) {
      const cost = costOf?.();
      if (cost !== undefined && cost !== null) response.addTrailers({ 'x-gateway-cost': String(cost) });
      response.end();
    }
    // The relay's generator records usage in its own finally; make sure it runs when we stopped early.
    await result.body.return(undefined);
  }
}

/**
 * Resolves when a slow client has read what was queued, or has gone. Both listeners are removed either way:
 * `Promise.race` over two `once()` left the loser attached, one more per pause, on a long slow stream.
 */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.removeListener('drain', done);
      response.removeListener('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** sendRelayResult for a Fastify route: the reply, once the answer is written. */
export async function sendRelayReply(reply: FastifyReply, result: RelayResult): Promise<FastifyReply> {
  await sendRelayResult(replyTarget(reply), result);
  return reply;
}
