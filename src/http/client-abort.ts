// An AbortSignal that fires when the client goes away before the response is complete.
import type { FastifyReply } from 'fastify';

export function abortSignalForClient(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
