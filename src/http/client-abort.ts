// An AbortSignal that fires when the client goes away before the response is complete.
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export function abortSignalForClient(reply: FastifyReply | ServerResponse): AbortSignal {
  const response = 'raw' in reply ? reply.raw : reply;
  const controller = new AbortController();
  // `on`, not `once`: 'close' comes once, and `once` would add a wrapper closure for as long as a stream is open.
  response.on('close', () => {
    if (!response.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
