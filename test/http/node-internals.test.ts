// The Node internals src/http/taken-stream.ts relies on (issue 16's streams taken off Node's HTTP server),
// checked one by one on a live connection, so a Node upgrade that renames or removes one fails here with
// its name, rather than as a quiet fall-back to Node's own path (the stream then simply costs more memory).
import { createRequire } from 'node:module';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

function listenerNames(emitter: object, event: string): string[] {
  const registered = (emitter as { _events?: Record<string, unknown> })._events?.[event];
  const list = typeof registered === 'function' ? [registered] : Array.isArray(registered) ? registered : [];
  return list.map((listener) => (listener as { name: string }).name);
}

describe(`the Node internals a taken stream uses (Node ${process.version})`, () => {
  it('are the modules, functions, listeners and symbols it names', async () => {
    expect(typeof (require('_http_common') as { freeParser?: unknown }).freeParser, '_http_common.freeParser').toBe('function');
    expect(typeof (require('_http_server') as { _connectionListener?: unknown })._connectionListener, '_http_server._connectionListener').toBe('function');
    const seen = await new Promise<{ socket: Record<string, string[]>; finish: string[]; symbols: string[]; parser: boolean }>((resolve, reject) => {
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const socket = req.socket;
        resolve({
          socket: Object.fromEntries(['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause'].map((event) => [event, listenerNames(socket, event)])),
          finish: listenerNames(res, 'finish'),
          symbols: Object.getOwnPropertySymbols(res).map((symbol) => symbol.description ?? ''),
          parser: (socket as { parser?: unknown }).parser != null,
        });
        res.end('ok');
        server.close();
      });
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        httpRequest({ port, host: '127.0.0.1', path: '/' }, (res) => res.resume()).on('error', reject).end();
      });
    });
    expect(seen.parser, 'socket.parser').toBe(true);
    expect(seen.socket.data).toContain('bound socketOnData');
    expect(seen.socket.end).toContain('bound socketOnEnd');
    expect(seen.socket.close).toContain('bound socketOnClose');
    expect(seen.socket.drain).toContain('bound socketOnDrain');
    expect(seen.socket.error).toContain('socketOnError');
    expect(seen.socket.timeout).toContain('socketOnTimeout');
    expect(seen.socket.resume).toContain('onSocketResume');
    expect(seen.socket.pause).toContain('onSocketPause');
    expect(seen.finish).toContain('bound resOnFinish');
    expect(seen.symbols).toContain('kWritableFinished');
  });
});
