// Writes a RelayResult to the client, straight to the socket. A whole answer goes out as headers and body
// in one write (Fastify's send pipeline — content-type parsing, serializer checks, onSend hooks we do not
// have — cost ~15 µs a call on the latency path). Streams are written as the relay yields them (no Node
// stream pipeline in between: fewer ticks before the first byte), waiting for 'drain' when the client
// reads slowly.
import { once } from 'node:events';
import type { FastifyReply } from 'fastify';
import type { RelayResult } from '../relay/relay-types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether answers carry their cost in `x-gateway-cost` (COST_HEADER, on by default). */
    costHeader?: boolean;
  }
}

export async function sendRelayResult(reply: FastifyReply, result: RelayResult): Promise<FastifyReply> {
  reply.hijack();
  const response = reply.raw;
  // getHeaders() returns a fresh object (Fastify copies its own and Node's): filled in place, not copied again.
  const headers = Object.assign(reply.getHeaders() as Record<string, string>, result.headers);
  // A whole answer's cost is known now; a stream's only at its end, so it is sent as an HTTP trailer.
  const costOf = reply.server.costHeader === false ? undefined : result.costMicros;
  if (result.kind === 'buffer') {
    const cost = costOf?.();
    if (cost !== undefined && cost !== null) headers['x-gateway-cost'] = String(cost);
    headers['content-length'] = String(Buffer.byteLength(result.body));
    response.writeHead(result.status, headers);
    response.end(result.body);
    return reply;
  }
  if (costOf) headers.trailer = 'x-gateway-cost';
  response.writeHead(result.status, headers);
  try {
    for await (const chunk of result.body) {
      if (response.destroyed) break;
      if (!response.write(chunk)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
    }
  } catch (error) {
    reply.log.warn({ err: error, requestId: reply.request.id }, 'stream to the client failed');
  } finally {
    if (!response.destroyed) {
      const cost = costOf?.();
      if (cost !== undefined && cost !== null) response.addTrailers({ 'x-gateway-cost': String(cost) });
      response.end();
    }
    // The relay's generator records usage in its own finally; make sure it runs when we stopped early.
    await result.body.return(undefined);
  }
  return reply;
}
