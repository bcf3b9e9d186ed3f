// The HTTP server Fastify runs on, with the lean relay lane (src/http/relay-lane.ts) in front: each request
// is offered to the lane first, and whatever it does not take goes to Fastify's own handler. The server is
// set up the way Fastify sets up the one it would have made itself.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { RelayLane } from './relay-lane.ts';
import { noteRequestAfterStream } from './taken-stream.ts';

interface FastifyServerSettings {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export function laneServerFactory(lane: RelayLane): FastifyServerFactory {
  return (fastifyHandler, options) => {
    const settings = options as FastifyServerSettings;
    const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
      noteRequestAfterStream(request, server);
      if (!lane.serve(request, response)) fastifyHandler(request, response);
    });
    // An upgrade (the realtime WebSocket) on a connection handed back after a stream: its idle timer goes.
    server.prependListener('upgrade', (request: IncomingMessage) => noteRequestAfterStream(request, server));
    if (settings.keepAliveTimeout !== undefined) server.keepAliveTimeout = settings.keepAliveTimeout;
    if (settings.requestTimeout !== undefined) server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout ?? 0);
    if (settings.maxRequestsPerSocket !== undefined && settings.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
    return server;
  };
}
