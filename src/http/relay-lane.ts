// The lean lane: the relayed JSON routes (chat completions, messages, embeddings, …) served straight from
// node:http, without Fastify's request and reply objects, hooks, child logger check, content-type parser
// and its async resource per request (together ~10 µs and a share of the garbage per call; issue 16).
// It gives these routes what Fastify gave them — a request id, the body-idle guard, the body limit, JSON
// parsing, the caller's address (through trusted proxies too), the requests metric, errors in the
// caller's format — and leaves every other request to Fastify: other methods and paths, URLs with a query
// string, browsers' requests when CORS is on, and everything once the server is closing. Fastify still
// declares the same routes and serves them the same way through relayForKey, so both paths stay one.
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString, type ParsedUrlQuery } from 'node:querystring';
import type { CachedKey } from '../accounts/key-index.ts';
import type { WireFormat } from '../providers/provider-definition.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import { authenticateKey } from '../accounts/authenticate-key.ts';
import { bodyTooLarge, invalidJson, invalidRequest } from '../gateway-errors.ts';
import { keyInHeadersOrQuery } from './authenticate.ts';
import { answerableError } from './error-handler.ts';
import { renderError } from './error-formats.ts';
import { boundedMetricsModel } from './metrics.ts';
import type { AnswerHeaders } from './send-relay-result.ts';
import { relayForKey, type RelayExchange, type RelayRouteOptions } from './routes/relay-route.ts';
import { BodyBuffer } from './read-body.ts';

interface RelayLaneSettings {
  bodyLimit: number;
  /** Whether answers carry `x-gateway-cost`. */
  costHeader: boolean;
  /** CORS_ORIGINS: with CORS on, requests carrying an Origin go through Fastify's CORS hook instead. */
  cors: 'off' | 'any-origin' | 'listed-origins';
  /** Proxies whose X-Forwarded-For is believed, as for Fastify's `trustProxy`. */
  trustProxy: string[] | undefined;
  /** Longest silence while a body arrives (the connection guards'), or null for none. */
  bodyIdleTimeoutMs: number | null;
  /** The app's request id generator, shared with Fastify's. */
  nextRequestId: () => string;
}

type ClientAddress = (request: IncomingMessage) => string;

/** How the lane relays one request once its body is in and its key known. */
interface LaneRoute {
  /** The route's label in the requests metric: Fastify's route URL. */
  readonly metricsRoute: string;
  /** The format the caller speaks; errors are rendered in it. */
  readonly errorFormat: WireFormat;
  relay(exchange: RelayExchange, key: CachedKey, query: ParsedUrlQuery, startedAt: number): Promise<void>;
}

/** Routes under a path prefix (Gemini's /v1beta/models/{model}:{method}): the rest of the path decides. */
interface LanePrefixRoutes {
  readonly metricsRoute: string;
  readonly errorFormat: WireFormat;
  /** The route for the rest of the path (undecoded; never holds `%`), or null to leave it to Fastify. */
  match(rest: string): { relay: LaneRoute['relay'] } | null;
}

/** What route declarations register on the lane (relay-route.ts, the Gemini route). */
interface RelayLaneRoutes {
  add(options: RelayRouteOptions): void;
  addPrefix(prefix: string, routes: LanePrefixRoutes): void;
}

/** Query parameters the lane reads itself; any other, a repeated one or an escape sends the request to Fastify. */
const LANE_QUERY = /^(?:(?:alt|key)=[\w.-]*&?)*$/;
const NO_QUERY: ParsedUrlQuery = Object.freeze({}) as ParsedUrlQuery;
/**
 * A Content-Type Fastify accepts (its ContentType class: `type/subtype`, both tokens, then parameters or
 * nothing). Fastify refuses any other with 400 before reading the body, so such requests are left to it.
 */
const VALID_MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;

// Declared here, beside the lane, so the route files that register on it need not import it (no cycle).
declare module 'fastify' {
  interface FastifyInstance {
    /** The lean lane, when the app has one: relayed routes register there too. */
    relayLane?: RelayLaneRoutes;
  }
}

export class RelayLane implements RelayLaneRoutes {
  private readonly routes = new Map<string, LaneRoute>();
  private readonly prefixes: { prefix: string; routes: LanePrefixRoutes }[] = [];
  private closing = false;
  readonly clientAddress: ClientAddress;
  readonly deps: RelayDeps;
  readonly settings: RelayLaneSettings;

  constructor(deps: RelayDeps, settings: RelayLaneSettings) {
    this.deps = deps;
    this.settings = settings;
    this.clientAddress = settings.trustProxy && settings.trustProxy.length > 0 ? forwardedAddress(settings.trustProxy) : socketAddress;
  }

  add(options: RelayRouteOptions): void {
    const deps = this.deps;
    this.routes.set(options.url, {
      metricsRoute: options.url,
      errorFormat: options.inboundFormat,
      relay: (exchange, key, _query, startedAt) => relayForKey(deps, exchange, key, options, startedAt),
    });
  }

  addPrefix(prefix: string, routes: LanePrefixRoutes): void {
    this.prefixes.push({ prefix, routes });
  }

  /** From now on every request goes to Fastify, which answers 503 while the server closes. */
  close(): void {
    this.closing = true;
  }

  /** Serves the request and says true, or says false and leaves it to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'POST' || this.closing) return false;
    if (this.settings.cors !== 'off' && request.headers.origin !== undefined) return false;
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && contentType !== 'application/json' && !VALID_MEDIA_TYPE.test(contentType)) return false;
    const url = request.url!;
    const route = this.routes.get(url);
    if (route !== undefined) {
      new LaneExchange(this, route, NO_QUERY, request, response).receive();
      return true;
    }
    return this.prefixes.length > 0 && this.servePrefixed(url, request, response);
  }

  private servePrefixed(url: string, request: IncomingMessage, response: ServerResponse): boolean {
    for (const { prefix, routes } of this.prefixes) {
      if (!url.startsWith(prefix)) continue;
      const queryAt = url.indexOf('?');
      const path = queryAt < 0 ? url : url.slice(0, queryAt);
      const queryText = queryAt < 0 ? '' : url.slice(queryAt + 1);
      // Fastify decodes %-escapes in the path, ends the path at a `#` and reads repeated parameters as
      // lists: left to it.
      if (path.includes('%') || path.includes('#') || !LANE_QUERY.test(queryText)) return false;
      const query = parseQueryString(queryText);
      if (Object.values(query).some((value) => typeof value !== 'string')) return false;
      let matched;
      try {
        matched = routes.match(path.slice(prefix.length));
      } catch {
        // A path the route refuses (too long a model name): Fastify renders that refusal.
        return false;
      }
      if (matched === null) return false;
      const route: LaneRoute = { metricsRoute: routes.metricsRoute, errorFormat: routes.errorFormat, relay: matched.relay };
      new LaneExchange(this, route, query, request, response).receive();
      return true;
    }
    return false;
  }
}

const socketAddress: ClientAddress = (request) => request.socket.remoteAddress ?? '';

/** Fastify's own rule (its `request.ip` with trustProxy a list): the last address proxy-addr trusts. */
function forwardedAddress(trusted: string[]): ClientAddress {
  // Fastify's dependency, in the version Fastify uses, so both paths read X-Forwarded-For alike.
  const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const proxyAddr = requireFromFastify('@fastify/proxy-addr') as { all(request: IncomingMessage, trust: unknown): string[]; compile(list: string[]): unknown };
  const trust = proxyAddr.compile(trusted);
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}

/** One request on the lane: receives the body, then is the relay's exchange (request and answer target). */
class LaneExchange implements RelayExchange {
  readonly requestId: string;
  readonly headers: IncomingMessage['headers'];
  body: unknown = undefined;
  rawBody: Buffer | undefined = undefined;
  private model: string | undefined = undefined;
  private readonly startedAt = performance.now();
  /** The body so far, in one buffer: kept chunk by chunk, a body sent in 1-byte chunks held ~190 bytes of
   * heap per byte (a Buffer object each), so BODY_LIMIT no longer bounded the memory one request took. */
  private bodyEnded = false;
  private bodyIdleArmed = false;
  private readonly lane: RelayLane;
  private readonly route: LaneRoute;
  private readonly query: ParsedUrlQuery;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;

  constructor(lane: RelayLane, route: LaneRoute, query: ParsedUrlQuery, request: IncomingMessage, response: ServerResponse) {
    this.lane = lane;
    this.route = route;
    this.query = query;
    this.request = request;
    this.response = response;
    this.headers = request.headers;
    this.requestId = lane.settings.nextRequestId();
  }

  get costHeader(): boolean {
    return this.lane.settings.costHeader;
  }

  get log(): RelayDeps['logger'] {
    return this.lane.deps.logger;
  }

  takeHeaders(): AnswerHeaders {
    // With a list of origins the answer depends on the Origin header (as the CORS hook says on Fastify's path).
    return this.lane.settings.cors === 'listed-origins' ? { 'x-request-id': this.requestId, vary: 'Origin' } : { 'x-request-id': this.requestId };
  }

  noteModel(model: string): void {
    this.model = model;
  }

  receive(): void {
    const { request, response } = this;
    countWhenFinished(this);
    const length = request.headers['content-length'];
    if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return this.relay();
    const limit = this.lane.settings.bodyLimit;
    if (length !== undefined && Number(length) > limit) return this.refuseBody(bodyTooLarge(limit));
    const idleMs = this.lane.settings.bodyIdleTimeoutMs;
    // Only while the body arrives: the answer may take minutes of silence, keep-alive has its own timeout.
    // Armed after this turn's I/O, and only if the body is not in by then: it nearly always came with the
    // headers (Node has parsed it by the check phase), and an armed-then-cleared socket timeout keeps its
    // Timeout object for the whole connection (Node clears the timer but keeps it on the socket).
    if (idleMs !== null) setImmediate(armBodyIdleTimeout, this, idleMs);
    // Node never delivers more than a declared length: the buffer need not outgrow it (nor the limit).
    const body = new BodyBuffer(limit, length === undefined ? limit : Number(length));
    const onData = (chunk: Buffer) => {
      if (body.append(chunk)) return;
      stop();
      this.refuseBody(bodyTooLarge(limit));
    };
    const onEnd = () => {
      stop();
      this.bodyEnded = true;
      const socket = request.socket;
      if (this.bodyIdleArmed && !response.writableFinished && !socket.destroyed) socket.setTimeout(0);
      if (length !== undefined && body.length !== Number(length)) return this.refuseBody(invalidRequest('The Content-Length header does not match the body.'));
      const bytes = body.take();
      this.rawBody = bytes;
      if (bytes.length > 0) {
        try {
          this.body = JSON.parse(bytes.toString('utf8'));
        } catch (error) {
          return this.refuseBody(invalidJson((error as Error).message));
        }
      }
      this.relay();
    };
    const onError = (error: Error) => {
      stop();
      // The client hung up mid-body: nobody is left to answer, and nothing was relayed or charged.
      if (!request.destroyed) this.refuseBody(invalidRequest(error.message));
    };
    const stop = () => {
      request.removeListener('data', onData);
      request.removeListener('end', onEnd);
      request.removeListener('error', onError);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  }

  private relay(): void {
    const { lane, route } = this;
    let key;
    try {
      key = authenticateKey(lane.deps.state.current.keys, keyInHeadersOrQuery(this.headers, this.query), lane.clientAddress(this.request), Date.now());
    } catch (error) {
      return this.answerError(error, false);
    }
    route.relay(this, key, this.query, this.startedAt).catch((error: unknown) => this.answerError(error, false));
  }

  /** A body that cannot be read or parsed: answered, and the connection closed after it (as Fastify does). */
  private refuseBody(error: unknown): void {
    this.answerError(error, true);
  }

  private answerError(error: unknown, closeConnection: boolean): void {
    const { request, response } = this;
    const gatewayError = answerableError(error, this.lane.settings.bodyLimit, request, response, this.log, this.requestId);
    // An answer already under way cannot turn into an error answer: the client sees it cut short.
    if (response.headersSent) {
      if (!response.writableEnded) response.destroy();
      return;
    }
    const rendered = renderError(this.route.errorFormat, gatewayError);
    const headers: AnswerHeaders = Object.assign(this.takeHeaders(), gatewayError.headers, rendered.headers);
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(rendered.body));
    if (closeConnection) headers.connection = 'close';
    response.writeHead(rendered.status, headers);
    response.end(rendered.body);
  }

  /** Arms the body-idle timeout (just after receive(): see there) if the body is still arriving. */
  armBodyIdle(idleMs: number): void {
    const { request } = this;
    if (this.bodyEnded || request.complete || request.destroyed) return;
    this.bodyIdleArmed = true;
    request.socket.setTimeout(idleMs);
  }

  count(): void {
    const deps = this.lane.deps;
    deps.metrics.requests.inc({
      route: this.route.metricsRoute,
      model: boundedMetricsModel(deps.state.current, this.model),
      status: String(this.response.statusCode),
    });
  }
}

function armBodyIdleTimeout(exchange: LaneExchange, idleMs: number): void {
  exchange.armBodyIdle(idleMs);
}

/**
 * Counts the request when the answer has been handed to the socket, as Fastify's onResponse hook counts.
 * Its own function so the listener's closure holds only the exchange (made in receive(), it kept the body
 * readers' closures alive with it), and `on`, not `once`: 'finish' comes once, and `once` adds a wrapper.
 */
function countWhenFinished(exchange: LaneExchange): void {
  exchange.response.on('finish', () => exchange.count());
}
