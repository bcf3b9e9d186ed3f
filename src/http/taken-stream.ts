// A streamed answer written straight to its socket, with the connection taken off Node's HTTP server while
// the stream runs (issue 16: memory per open stream). For every connection with an answer open, Node keeps
// its native llhttp parser (~7 KB of malloc) and the parser's JS side, although a streamed call's request
// has been read in full and nothing more is expected from the client until the stream ends. Node lets go
// of them itself for an upgraded connection (WebSocket); this does the same for a stream: the parser goes
// back to Node's pool (or is freed), the answer's chunks and its trailer are written here in HTTP/1.1
// chunked framing, and after the stream the socket is handed back to the server as a fresh connection, so
// keep-alive carries on as before. Measured in docs/performance.md ("Streams off Node's HTTP server").
//
// Node still decides everything about the head: ServerResponse.writeHead() validates the headers and builds
// the status line, Date, Connection, Keep-Alive and Transfer-Encoding exactly as for any answer; Node sends
// that head with the first write, and so does this. Only answers Node framed as chunked are taken (HTTP/1.1),
// and only when this request is the connection's current one: anything unusual keeps Node's own path.
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const require = createRequire(import.meta.url);
// Node's modules behind `http` (loadable by name since Node's first versions, not in the typings): the same
// two functions Node uses to release an upgraded connection's parser and to set up a new connection.
const { freeParser } = require('_http_common') as { freeParser(parser: unknown, request: unknown, socket: unknown): void };
const { _connectionListener: connectionListener } = require('_http_server') as { _connectionListener(this: Server, socket: Socket): void };

/** The listeners Node's server puts on a connection's socket (by their function names in Node 24). */
const SERVER_LISTENERS: readonly (readonly [string, string])[] = [
  ['data', 'bound socketOnData'],
  ['end', 'bound socketOnEnd'],
  ['close', 'bound socketOnClose'],
  ['drain', 'bound socketOnDrain'],
  ['error', 'socketOnError'],
  ['timeout', 'socketOnTimeout'],
  ['resume', 'onSocketResume'],
  ['pause', 'onSocketPause'],
];

/** What a client may send while its stream runs (a request pipelined behind it) before the connection is cut. */
const EARLY_BYTES_LIMIT = 64 * 1024;

/** The 'finish' listener Node puts on each ServerResponse. */
const NODE_FINISH_LISTENER = 'bound resOnFinish';

interface NodeHttpSocket extends Socket {
  parser?: { incoming?: unknown; _consumed?: boolean } | null;
  _httpMessage?: unknown;
  server?: Server;
}

interface NodeServerResponse extends ServerResponse {
  _header: string | null;
  _last: boolean;
  chunkedEncoding: boolean;
  finished: boolean;
  _onPendingData: (delta: number) => void;
}

function ignorePendingData(): void {}

/** Node's own "finished" flag of an answer (what `writableFinished` reads), found once by its name. */
let finishedFlagKey: symbol | undefined | null = null;

function writableFinishedFlag(response: ServerResponse): symbol | undefined {
  finishedFlagKey ??= Object.getOwnPropertySymbols(response).find((key) => key.description === 'kWritableFinished');
  return finishedFlagKey;
}

function destroyOnError(this: Socket): void {
  this.destroy();
}

function uncorkAtTurnEnd(stream: TakenStream): void {
  stream.uncork();
}

/** Streams taken off each server, so that shutdown can still cut them after its grace period. */
const takenByServer = new WeakMap<Server, Set<TakenStream>>();
/** Sockets handed back after a stream whose keep-alive idle timer is ours until their next request. */
const idleAfterStream = new WeakSet<Socket>();

/**
 * Takes the connection of an answer whose head writeHead() has just built, or returns null when Node's own
 * path must stay (not chunked, not the connection's current exchange, an unexpected server state).
 */
export function takeStream(request: IncomingMessage, response: ServerResponse): TakenStream | null {
  const socket = request.socket as NodeHttpSocket;
  const outgoing = response as NodeServerResponse;
  const parser = socket.parser;
  const server = socket.server;
  if (!outgoing.chunkedEncoding || typeof outgoing._header !== 'string' || !request.complete) return null;
  // A pipelined request parsed behind this one (its answer queued in Node's state) needs Node's ordering.
  if (parser == null || parser.incoming !== request || socket._httpMessage !== response) return null;
  if (server === undefined || socket.destroyed || !socket.writable) return null;
  const finishedFlag = writableFinishedFlag(outgoing);
  if (finishedFlag === undefined || !hasServerListeners(socket, response)) return null;
  for (const [event, name] of SERVER_LISTENERS) removeListenerNamed(socket, event, name);
  // Node's end-of-answer step (keep-alive timer, next pipelined answer) would act on a connection it no longer has.
  removeListenerNamed(response, 'finish', NODE_FINISH_LISTENER);
  // Returns the parser to Node's pool (it unconsumes the socket first), as Node does after an upgrade.
  freeParser(parser, request, socket);
  response.detachSocket(socket);
  // Node's hook from the answer to the connection's old state (its request queue and bound socket handlers,
  // ~0.7 KB): this answer no longer writes through Node, and the state would be kept for the stream's life.
  outgoing._onPendingData = ignorePendingData;
  return new TakenStream(server, socket, outgoing);
}

/** A request arrived on a connection handed back after a stream: Node's own timers rule it again. */
export function noteRequestAfterStream(request: IncomingMessage, server: Server): void {
  const socket = request.socket;
  if (!idleAfterStream.delete(socket)) return;
  // What Node does when a request arrives on an idle keep-alive connection.
  socket.setTimeout(server.timeout);
}

/** Cuts every stream still taken off the server (shutdown, after its grace period). */
export function destroyTakenStreams(server: Server): void {
  const taken = takenByServer.get(server);
  if (taken === undefined) return;
  for (const stream of taken) stream.destroy();
}

function hasServerListeners(socket: Socket, response: ServerResponse): boolean {
  return listenerNamed(socket, 'data', 'bound socketOnData') !== undefined
    && listenerNamed(socket, 'close', 'bound socketOnClose') !== undefined
    && listenerNamed(response, 'finish', NODE_FINISH_LISTENER) !== undefined;
}

type Listener = (...args: unknown[]) => void;

/** The listener of that name, read from the emitter's own table (listeners() would copy it per call). */
function listenerNamed(emitter: Socket | ServerResponse, event: string, name: string): Listener | undefined {
  const registered = (emitter as unknown as { _events: Record<string, Listener | Listener[] | undefined> })._events[event];
  if (typeof registered === 'function') return registered.name === name ? registered : undefined;
  if (registered === undefined) return undefined;
  for (let i = 0; i < registered.length; i += 1) if (registered[i]!.name === name) return registered[i];
  return undefined;
}

function removeListenerNamed(emitter: Socket | ServerResponse, event: string, name: string): void {
  const listener = listenerNamed(emitter, event, name);
  if (listener !== undefined) emitter.removeListener(event, listener);
}

/**
 * One stream's connection while it is off the server: writes the head with the first chunk, each chunk in
 * chunked framing, the end with its trailer; notices the client leaving (the ServerResponse then emits
 * 'close' unfinished, as Node's would, which aborts the call); and hands the socket back afterwards.
 */
export class TakenStream {
  private readonly server: Server;
  private readonly socket: Socket;
  private readonly response: NodeServerResponse;
  /** The status line and headers, until they go out with the first write. */
  private head: string | null;
  private finished = false;
  closed = false;
  /** What the client sent during the stream (a pipelined request): handed to the server after the stream. */
  private early: Buffer[] | null = null;
  private earlyBytes = 0;
  private onWritable: (() => void) | null = null;
  private corked = false;

  constructor(server: Server, socket: Socket, response: NodeServerResponse) {
    this.server = server;
    this.socket = socket;
    this.response = response;
    this.head = response._header;
    let taken = takenByServer.get(server);
    if (taken === undefined) takenByServer.set(server, (taken = new Set()));
    taken.add(this);
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('timeout', this.onError);
    socket.on('close', this.onClose);
    socket.on('drain', this.onDrain);
  }

  /** Writes one chunk; false when the client reads slowly (wait with whenWritable). */
  write(chunk: string | Buffer): boolean {
    // A chunk of length 0 would end chunked framing: Node skips such writes as well.
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (length === 0 || this.closed) return !this.closed;
    const head = this.head;
    this.head = null;
    const socket = this.socket;
    // Chunks written in one turn (an upstream read often holds many events) leave in one writev, as
    // Node's own response does: corked until the turn's end.
    if (!this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(uncorkAtTurnEnd, this);
    }
    const size = length.toString(16);
    if (typeof chunk === 'string') return socket.write(head === null ? `${size}\r\n${chunk}\r\n` : `${head}${size}\r\n${chunk}\r\n`);
    socket.write(head === null ? `${size}\r\n` : `${head}${size}\r\n`);
    socket.write(chunk);
    return socket.write('\r\n');
  }

  /** Sends what this turn's writes queued (process.nextTick after the first of them). */
  uncork(): void {
    this.corked = false;
    this.socket.uncork();
  }

  /** Calls back once the socket has drained what is queued, or the client has gone. */
  whenWritable(callback: () => void): void {
    if (this.closed) return callback();
    this.onWritable = callback;
  }

  /** Ends the answer (with the cost trailer when given) and hands the connection back or closes it. */
  end(cost: string | null): void {
    if (this.closed || this.finished) return;
    this.finished = true;
    const ending = cost === null ? '0\r\n\r\n' : `0\r\nx-gateway-cost: ${cost}\r\n\r\n`;
    const socket = this.socket;
    socket.write(this.head === null ? ending : this.head + ending);
    this.head = null;
    this.release();
    const response = this.response;
    // As Node marks an answer it finished itself: its 'close' listeners see a complete answer (the client's
    // abort signal must not fire: it did once, building an Error per stream for nothing).
    response.finished = true;
    (response as unknown as Record<symbol, boolean>)[finishedFlagKey!] = true;
    if (response._last || !this.server.listening) {
      // Closed after the answer: a client that resets the connection meanwhile must not find the socket
      // without an 'error' listener (an unhandled 'error' would end the process).
      socket.on('error', destroyOnError);
      socket.end();
    } else {
      this.handBack();
    }
    response.emit('finish');
    response.emit('close');
  }

  /** Cuts the connection: the client sees the answer end without its last chunk. */
  destroy(): void {
    this.socket.destroy();
  }

  private handBack(): void {
    const socket = this.socket;
    const server = this.server;
    // Node lets its parser read the socket natively only on a socket never read that way before ("consumed");
    // this one was, by the parser released at the take. Without this its reads went through JS 'data' events.
    // Bytes read during the stream must reach the new parser before any later ones: then it reads in JS.
    const early = this.early;
    const handle = (socket as { _handle?: { _consumed?: boolean } | null })._handle;
    if (handle && early === null) handle._consumed = false;
    connectionListener.call(server, socket);
    if (early !== null) socket.unshift(early.length === 1 ? early[0]! : Buffer.concat(early));
    // Node arms the keep-alive idle timer when an answer finishes on its own path; here the new connection
    // state does not know an answer just finished, so it is armed here and disarmed by the next request.
    if (server.keepAliveTimeout > 0) {
      idleAfterStream.add(socket);
      socket.setTimeout(server.keepAliveTimeout);
    }
  }

  private release(): void {
    const socket = this.socket;
    socket.removeListener('data', this.onData);
    socket.removeListener('end', this.onEnd);
    socket.removeListener('error', this.onError);
    socket.removeListener('timeout', this.onError);
    socket.removeListener('close', this.onClose);
    socket.removeListener('drain', this.onDrain);
    takenByServer.get(this.server)?.delete(this);
  }

  private readonly onData = (chunk: Buffer): void => {
    // Read on (so that a client leaving is noticed at once) and kept for the server to parse after the
    // stream, up to a bound: past it the client is not waiting for this answer, and the connection is cut.
    this.earlyBytes += chunk.length;
    if (this.earlyBytes > EARLY_BYTES_LIMIT) return void this.socket.destroy();
    (this.early ??= []).push(chunk);
  };

  /** The client closed its side: the answer cannot be delivered in full (Node ends such connections too). */
  private readonly onEnd = (): void => {
    this.socket.destroy();
  };

  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private readonly onClose = (): void => {
    if (this.finished) return;
    this.closed = true;
    this.release();
    const response = this.response;
    response.destroyed = true;
    response.emit('close');
    this.wake();
  };

  private readonly onDrain = (): void => {
    this.wake();
  };

  private wake(): void {
    const callback = this.onWritable;
    this.onWritable = null;
    callback?.();
  }
}
