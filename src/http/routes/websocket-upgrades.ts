// WebSocket upgrades dispatched through Fastify's router, with `ws` loaded on the first upgrade a route
// accepts. This is what @fastify/websocket did (an 'upgrade' listener that routes the request with a
// ServerResponse on its socket, so hooks, validation and refusals answer over HTTP before any upgrade),
// without holding ws, the plugin and its stream dependencies in every idle gateway (issue 16, memory).
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type WebSocket from 'ws';
import type { ServerOptions, WebSocketServer } from 'ws';

interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
}

export interface WebSocketUpgrades {
  /** Whether the request came as a WebSocket upgrade whose socket is still ours to take over. */
  isUpgrade(request: FastifyRequest): boolean;
  /** Completes the handshake (the reply is hijacked) and hands the open socket to `onOpen`. */
  accept(request: FastifyRequest, reply: FastifyReply, onOpen: (socket: WebSocket) => void): Promise<void>;
}

function destroyOnError(this: Duplex): void {
  this.destroy();
}

export function installWebSocketUpgrades(app: FastifyInstance, options: Pick<ServerOptions, 'handleProtocols' | 'maxPayload'>): WebSocketUpgrades {
  const pending = new WeakMap<IncomingMessage, PendingUpgrade>();
  let server: WebSocketServer | undefined;
  let loading: Promise<WebSocketServer> | undefined;
  const loadServer = () => (loading ??= import('ws').then(({ WebSocketServer: Server }) => (server = new Server({ ...options, noServer: true }))));

  const onUpgrade = (rawRequest: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node removes its socket error listener before emitting 'upgrade': keep the socket guarded while
    // the request is routed.
    socket.on('error', destroyOnError);
    pending.set(rawRequest, { socket, head });
    const response = new ServerResponse(rawRequest);
    try {
      response.assignSocket(socket as Socket);
      app.routing(rawRequest, response);
    } catch (error) {
      app.log.warn({ err: error }, 'websocket upgrade failed');
      socket.destroy();
    }
  };
  app.server.on('upgrade', onUpgrade);
  // An upgrade answered over HTTP (a refusal) is not taken over: its socket is closed once answered.
  app.addHook('onResponse', (request, _reply, done) => {
    const upgrade = pending.get(request.raw);
    if (upgrade) {
      pending.delete(request.raw);
      upgrade.socket.destroy();
    }
    done();
  });
  app.addHook('preClose', (done) => {
    app.server.removeListener('upgrade', onUpgrade);
    if (server) {
      for (const client of server.clients) client.close();
      server.close();
    }
    done();
  });

  return {
    isUpgrade: (request) => pending.has(request.raw),
    async accept(request, reply, onOpen) {
      const upgrade = pending.get(request.raw)!;
      pending.delete(request.raw);
      reply.hijack();
      let wss: WebSocketServer;
      try {
        wss = await loadServer();
      } catch (error) {
        request.log.error({ err: error }, 'websocket upgrade failed');
        upgrade.socket.destroy();
        return;
      }
      // ws installs its own error listener on the socket as it takes it.
      upgrade.socket.removeListener('error', destroyOnError);
      wss.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (socket) => {
        socket.on('error', (error) => {
          request.log.error(error);
          socket.terminate();
        });
        try {
          onOpen(socket);
        } catch (error) {
          request.log.error(error);
          socket.terminate();
        }
      });
    },
  };
}
