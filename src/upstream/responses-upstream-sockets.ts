// The Responses API's WebSocket mode towards an upstream that speaks it (OpenAI: `wss://…/v1/responses`,
// `OpenAI-Beta: responses_websockets=2026-02-06`, the client sends `{"type":"response.create", …body
// without stream}` and each server event comes back as one text frame), for one client connection of the
// gateway's own WebSocket mode (src/http/responses-websocket-session.ts).
//
// One upstream socket per channel, opened by the first turn that lands on that channel, reused by the next
// turns, closed with the client connection or after `idleMs` without a turn. A turn is handed to the
// attempt machinery as an UpstreamResponse whose chunks are the frames written as SSE events, so usage,
// metering, logging and failover read it exactly as they read a streamed POST (one path).
//
// What falls back to a streamed POST on the same channel, invisibly: an upstream that refuses the upgrade
// (remembered for the rest of the connection, so each turn does not knock again), a socket that closes or
// fails before the turn's first event, and a turn while the channel's socket is busy (a hedge). A socket
// that dies after the first event fails the stream as a dropped HTTP stream would (a hang-up).
import WebSocket from 'ws';
import type { Logger } from 'pino';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream, type UpstreamRequest, type UpstreamResponse } from './send-upstream.ts';
import type { UpstreamAgents } from './upstream-agent.ts';
import { authenticatedHeaders } from './upstream-auth.ts';
import { errors as undiciErrors } from './undici-parts.ts';

/** The beta header OpenAI's WebSocket mode asks for (the value Codex sends). */
const RESPONSES_WEBSOCKETS_BETA = 'responses_websockets=2026-02-06';
/** Frames queued for a slow consumer before the socket is paused. */
const HIGH_WATER_FRAMES = 64;
/** The events that end a turn: the socket is then free for the next one. */
const TERMINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

/** Sends a streamed Responses turn over the channel's upstream socket (or as a POST when it cannot). */
export interface ResponsesTurnSender {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
}

/** Why a turn goes out as a POST after all; `refused`: the upstream answered the upgrade with HTTP. */
class FallBackToHttp extends Error {
  readonly refused: boolean;
  constructor(message: string, refused: boolean) {
    super(message);
    this.refused = refused;
  }
}

/** The upstream sockets of one client connection, one per channel. */
export class ResponsesUpstreamSockets implements ResponsesTurnSender {
  private readonly sockets = new Map<number, ChannelSocket>();
  /** Channels that refused the upgrade on this connection: their turns go out as POSTs at once. */
  private readonly refused = new Set<number>();
  private closed = false;
  private readonly agents: UpstreamAgents;
  private readonly idleMs: number;
  private readonly logger: Logger;
  private readonly requestId: string;

  constructor(agents: UpstreamAgents, idleMs: number, logger: Logger, requestId: string) {
    this.agents = agents;
    this.idleMs = idleMs;
    this.logger = logger;
    this.requestId = requestId;
  }

  async send(request: UpstreamRequest): Promise<UpstreamResponse> {
    const { channel } = request;
    if (this.closed || this.refused.has(channel.id)) return sendUpstream(this.agents, request);
    let socket = this.sockets.get(channel.id);
    // The channel was edited (a new routing table): its old socket may point at the old address or key.
    if (socket && (socket.channel !== channel || socket.dead)) {
      socket.close();
      socket = undefined;
    }
    if (socket?.busy) return sendUpstream(this.agents, request);
    if (!socket) {
      socket = new ChannelSocket(channel, request, this.idleMs, () => this.forget(channel.id, socket!));
      this.sockets.set(channel.id, socket);
    }
    try {
      return await socket.turn(request);
    } catch (error) {
      if (!(error instanceof FallBackToHttp)) throw error;
      if (error.refused) this.refused.add(channel.id);
      this.logger.info({ requestId: this.requestId, channel: channel.name, reason: error.message }, 'responses websocket: the upstream socket is not usable, the turn goes out as a streamed POST');
      return sendUpstream(this.agents, request);
    }
  }

  /** The client connection closed: every upstream socket closes with it. */
  closeAll(): void {
    this.closed = true;
    for (const socket of this.sockets.values()) socket.close();
    this.sockets.clear();
  }

  private forget(channelId: number, socket: ChannelSocket): void {
    if (this.sockets.get(channelId) === socket) this.sockets.delete(channelId);
  }
}

/** One upstream socket and the turn running on it, if any. */
class ChannelSocket {
  readonly channel: RoutedChannel;
  private ws: WebSocket | null = null;
  private readonly opened: Promise<void>;
  private current: SocketTurn | null = null;
  private idle: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly onGone: () => void;
  dead = false;

  constructor(channel: RoutedChannel, first: UpstreamRequest, idleMs: number, onGone: () => void) {
    this.channel = channel;
    this.idleMs = idleMs;
    this.onGone = onGone;
    this.opened = this.open(first);
    // A refusal is read by the turn that awaits it; nobody else must see it unhandled.
    this.opened.catch(() => {});
  }

  get busy(): boolean {
    return this.current !== null;
  }

  private async open(first: UpstreamRequest): Promise<void> {
    const channel = this.channel;
    const url = new URL(channel.origin + channel.basePath + first.path);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const own: Record<string, string> = { 'openai-beta': RESPONSES_WEBSOCKETS_BETA };
    if (first.traceparent !== undefined) own.traceparent = first.traceparent;
    const signed = authenticatedHeaders(channel, 'GET', first.path, own, null);
    const headers = signed instanceof Promise ? await signed : signed;
    if (this.dead) throw new FallBackToHttp('closed while opening', false);
    const ws = new WebSocket(url, { headers, handshakeTimeout: first.headersTimeoutMs, perMessageDeflate: false });
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('unexpected-response', (_request, response) => {
        response.resume();
        reject(new FallBackToHttp(`the upstream answered the upgrade with HTTP ${response.statusCode ?? '?'}`, true));
        ws.terminate();
      });
      ws.once('error', (error) => reject(new FallBackToHttp(`the upgrade failed: ${error.message}`, false)));
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.current?.frame(String(data));
    });
    ws.on('close', () => this.gone(new FallBackToHttp('the upstream socket closed', false)));
    ws.on('error', () => {}); // followed by 'close'
  }

  /** Sends the turn; resolves at its first event (an `error` event first: an HTTP error answer). */
  async turn(request: UpstreamRequest): Promise<UpstreamResponse> {
    clearTimeout(this.idle);
    const turn = new SocketTurn(this, request);
    this.current = turn;
    try {
      await this.opened;
    } catch (error) {
      this.current = null;
      turn.fail(error as Error);
      this.close();
      throw error;
    }
    if (this.dead || !this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.current = null;
      const closed = new FallBackToHttp('the upstream socket closed', false);
      turn.fail(closed);
      throw closed;
    }
    this.ws.send(createMessage(request.body));
    return turn.started;
  }

  /** The turn ended with a terminal event: the socket waits for the next one. */
  turnDone(turn: SocketTurn): void {
    if (this.current !== turn) return;
    this.current = null;
    if (this.dead) return;
    this.idle = setTimeout(() => this.close(), this.idleMs);
    this.idle.unref();
  }

  pause(): void {
    this.ws?.pause();
  }

  resume(): void {
    this.ws?.resume();
  }

  close(): void {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.idle);
    this.onGone();
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.close(1000);
    else if (ws && ws.readyState === WebSocket.CONNECTING) ws.terminate();
    this.gone(new FallBackToHttp('the upstream socket closed', false));
  }

  private gone(reason: FallBackToHttp): void {
    if (!this.dead) {
      this.dead = true;
      clearTimeout(this.idle);
      this.onGone();
    }
    const turn = this.current;
    this.current = null;
    turn?.fail(reason);
  }
}

/** The body of a streamed POST as a response.create message: the same fields, without the HTTP stream options. */
function createMessage(body: UpstreamRequest['body']): string {
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : '{}';
  const { stream: _stream, stream_options: _options, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify({ type: 'response.create', ...rest });
}

const DONE: IteratorResult<Buffer> = Object.freeze({ value: undefined, done: true });

/** One turn on a socket, read as a streamed HTTP answer: each frame becomes an SSE event. */
class SocketTurn implements UpstreamResponse, AsyncIterator<Buffer>, AsyncIterable<Buffer> {
  statusCode = 200;
  headers: Record<string, string> = { 'content-type': 'text/event-stream' };
  readonly started: Promise<UpstreamResponse>;
  private resolveStart!: (response: UpstreamResponse) => void;
  private rejectStart!: (error: unknown) => void;
  private begun = false;
  private readonly frames: Buffer[] = [];
  private ended = false;
  private failure: Error | null = null;
  private pull: { resolve: (step: IteratorResult<Buffer>) => void; reject: (error: unknown) => void } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private errorText = '';
  private readonly socket: ChannelSocket;
  private readonly request: UpstreamRequest;
  private readonly onAbort = () => this.abort(this.request.signal.reason as Error);

  constructor(socket: ChannelSocket, request: UpstreamRequest) {
    this.socket = socket;
    this.request = request;
    this.started = new Promise((resolve, reject) => {
      this.resolveStart = resolve;
      this.rejectStart = reject;
    });
    this.started.catch(() => {});
    request.signal.addEventListener('abort', this.onAbort, { once: true });
    // Until the first event, the channel's headers timeout; then its idle timeout between events.
    this.arm(request.headersTimeoutMs, () => new undiciErrors.HeadersTimeoutError());
  }

  private arm(ms: number, error: () => Error): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fail(error());
      this.socket.close();
    }, ms);
  }

  frame(text: string): void {
    let type: unknown;
    try {
      type = (JSON.parse(text) as { type?: unknown }).type;
    } catch {
      type = undefined;
    }
    const terminal = typeof type === 'string' && TERMINAL_EVENTS.has(type);
    if (!this.begun) {
      this.begun = true;
      if (type === 'error') {
        // A refusal before any event: an HTTP error answer with the event's status, as a POST would get it.
        const event = JSON.parse(text) as { status?: unknown; error?: unknown };
        this.statusCode = typeof event.status === 'number' && event.status >= 400 ? event.status : 500;
        this.headers = { 'content-type': 'application/json' };
        this.errorText = JSON.stringify({ error: event.error ?? null });
        this.finish();
        this.resolveStart(this);
        return;
      }
      this.resolveStart(this);
    }
    // Multi-line data (a pretty-printed frame) stays one event: one data line per line.
    this.frames.push(Buffer.from(`event: ${typeof type === 'string' ? type : 'message'}\ndata: ${text.includes('\n') ? text.replace(/\n/g, '\ndata: ') : text}\n\n`));
    if (this.frames.length >= HIGH_WATER_FRAMES) this.socket.pause();
    if (terminal) this.finish();
    else this.arm(this.request.idleTimeoutMs, () => new undiciErrors.BodyTimeoutError());
    this.notify();
  }

  private finish(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.request.signal.removeEventListener('abort', this.onAbort);
    this.socket.turnDone(this);
  }

  /** The socket went away: before the first event the turn goes out as a POST; after it, the stream fails (a hang-up). */
  fail(reason: Error): void {
    if (this.ended || this.failure) return;
    clearTimeout(this.timer);
    this.request.signal.removeEventListener('abort', this.onAbort);
    if (!this.begun) {
      this.begun = true;
      this.failure = reason;
      this.rejectStart(reason);
      return;
    }
    this.failure = reason instanceof FallBackToHttp ? Object.assign(new Error(`the upstream socket closed mid-answer`), { code: 'ECONNRESET' }) : reason;
    this.notify();
  }

  private notify(): void {
    const pull = this.pull;
    if (pull === null) return;
    this.pull = null;
    if (this.frames.length > 0) pull.resolve(this.take());
    else if (this.failure) pull.reject(this.failure);
    else if (this.ended) pull.resolve(DONE);
    else this.pull = pull;
  }

  private take(): IteratorResult<Buffer> {
    const frame = this.frames.shift()!;
    if (this.frames.length === 0) this.socket.resume();
    return { value: frame, done: false };
  }

  async text(): Promise<string> {
    if (this.errorText !== '') return this.errorText;
    const parts: Buffer[] = [];
    for await (const frame of this) parts.push(frame);
    return Buffer.concat(parts).toString('utf8');
  }

  chunks(): AsyncIterable<Buffer> {
    return this;
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return this;
  }

  next(): Promise<IteratorResult<Buffer>> {
    if (this.frames.length > 0) return Promise.resolve(this.take());
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => (this.pull = { resolve, reject }));
  }

  /** The consumer stopped before the turn ended (the client went away): the socket cannot be reused. */
  return(): Promise<IteratorResult<Buffer>> {
    if (!this.ended) this.abort(new Error('the client went away'));
    return Promise.resolve(DONE);
  }

  abort(reason: Error = new Error('aborted by the gateway')): void {
    if (this.ended) return;
    this.fail(reason);
    this.socket.close();
  }
}
