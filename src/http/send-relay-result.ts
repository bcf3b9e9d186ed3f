// Writes a RelayResult to the client.
import type { FastifyReply } from 'fastify';
import type { RelayResult } from '../relay/relay-types.ts';

export function sendRelayResult(reply: FastifyReply, result: RelayResult): FastifyReply {
  reply.code(result.status).headers(result.headers);
  return reply.send(result.body);
}
