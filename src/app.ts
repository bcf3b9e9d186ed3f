// buildApp wires plugins and routes around already-built services. It never listens: main.ts and the
// tests do, on a port of their choosing.
import { createRequestIdGenerator } from './http/request-ids.ts';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RelayDeps } from './relay/relay-deps.ts';
import { installErrorHandling, handleFrameworkError, sendError } from './http/error-handler.ts';
import { shuttingDown } from './gateway-errors.ts';
import { handleClientError, installConnectionGuards, type ConnectionLimits } from './http/connection-guards.ts';
import { boundedMetricsModel } from './http/metrics.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { installCors, type CorsOrigins } from './http/cors.ts';
import { installPathHints } from './http/path-hints.ts';
import { registerStateMetrics } from './http/state-metrics.ts';
import { chatCompletionsRoute } from './http/routes/chat-completions-route.ts';
import { modelsRoute } from './http/routes/models-route.ts';
import { healthRoutes } from './http/routes/health-route.ts';
import { billingRoutes } from './http/routes/billing-route.ts';
import { openAIEndpointRoutes } from './http/routes/openai-endpoint-routes.ts';
import { uploadRoutes } from './http/routes/upload-routes.ts';
import { storedResponsesRoutes } from './http/routes/stored-responses-route.ts';
import { anthropicMessagesRoute } from './http/routes/anthropic-messages-route.ts';
import { geminiGenerateRoutes } from './http/routes/gemini-generate-route.ts';
import multipart from '@fastify/multipart';
import { realtimeRoute } from './http/routes/realtime-route.ts';
import { responsesWebSocketRoute, type ResponsesWebSocketLimits } from './http/routes/responses-websocket-route.ts';
import { pricingPageSetting } from './accounts/public-pricing.ts';
import { answerUnknownPageForBrowser, DEFAULT_WEB_DIST, loadDashboardPage, webAppRoutes } from './http/web-app.ts';
import type { AnnounceChange } from './cluster/invalidation-bus.ts';
import type { RedisContext } from './cluster/redis-connection.ts';
import type { Db } from './db/repositories/repository-helpers.ts';
import type { MetricsAccess } from './http/metrics-access.ts';
import { installAccountsApi, type AccountsOptions } from './http/routes/api-routes.ts';
import { apiPlaygroundRoutes } from './http/routes/api-playground-routes.ts';
import { installPaymentsApi, type PaymentsOptions } from './http/routes/api-payments-install.ts';
import { lazySchemaController } from './http/lazy-schema-compilers.ts';
import { RelayLane } from './http/relay-lane.ts';
import { laneServerFactory } from './http/lane-server.ts';
import { mcpRoutes } from './http/routes/mcp-routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The model a request named, for the requests metric. */
    metricsModel?: string;
  }
}

interface AppOptions {
  bodyLimit: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs), or none. */
  trustProxy: string[] | undefined;
  isReady: () => boolean;
  /** The built dashboard (web/dist by default). */
  webDistDir?: string;
  /** Browser origins allowed on /v1 and /v1beta (CORS_ORIGINS); null or absent: no CORS. */
  corsOrigins?: CorsOrigins | null;
  /** Whether answers carry `x-gateway-cost` (COST_HEADER); default true. */
  costHeader?: boolean;
  /** Timeouts and connection caps against slow or abusive clients (src/http/connection-guards.ts). */
  connectionLimits?: ConnectionLimits;
  /** Caps and idle timeout of the Responses API's WebSocket mode (GET /v1/responses). */
  responsesWebSocket?: ResponsesWebSocketLimits;
  /** Token for /metrics, or null when /metrics listens on its own port (METRICS_PORT) instead of this one. */
  metricsAccess?: MetricsAccess | null;
}

interface AppDeps extends RelayDeps {
  logger: Logger;
  db: Db;
  announce: AnnounceChange;
  /** Accounts, the self-service /api and /api/admin (issue 12). */
  accounts: AccountsOptions;
  /** Card top-ups, the Stripe webhook and redemption codes (issue 14); needs accounts. */
  payments?: PaymentsOptions;
  /** The deployment's shared Redis (REDIS_URL), for state other than the relay's: MCP sessions. */
  redis?: RedisContext | undefined;
}

export function buildApp(deps: AppDeps, options: AppOptions): FastifyInstance {
  const nextRequestId = createRequestIdGenerator();
  const corsOrigins = options.corsOrigins ?? null;
  // The relayed routes' hot path, ahead of Fastify on the same server (src/http/relay-lane.ts).
  const lane = new RelayLane(deps, {
    bodyLimit: options.bodyLimit,
    costHeader: options.costHeader ?? true,
    cors: corsOrigins === null ? 'off' : corsOrigins === '*' ? 'any-origin' : 'listed-origins',
    trustProxy: options.trustProxy,
    bodyIdleTimeoutMs: options.connectionLimits?.bodyIdleTimeoutMs ?? null,
    nextRequestId,
  });
  const app = Fastify({
    serverFactory: laneServerFactory(lane),
    // pino's Logger and Fastify's logger type differ only in generics; the instance is the same.
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Requests are counted in metrics and the usage log, not logged one by one.
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger either (Fastify makes one even with request logging off, and with our
    // redaction paths it cost more than the key lookup): our log lines carry requestId themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy && options.trustProxy.length > 0 ? options.trustProxy : false,
    genReqId: nextRequestId,
    requestIdHeader: false,
    // Refused by our own first hook instead (below), in the caller's error envelope: Fastify's own 503 is
    // its bare `{"error":"Service Unavailable"}` without a request id.
    return503OnClosing: false,
    // Node's and Fastify's own refusals (malformed HTTP, a bad URL, an over-long path parameter) in the
    // caller's error envelope rather than their bare defaults.
    clientErrorHandler: handleClientError,
    frameworkErrors: handleFrameworkError,
    // ajv and fast-json-stringify only if a route ever declares a JSON schema (none does: zod validates).
    schemaController: lazySchemaController,
  });
  app.decorate('relayLane', lane);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    lane.close();
    done();
  });
  // First of all hooks: a request arriving on an open connection once the gateway stops (in-flight calls
  // finish) is refused with 503, Retry-After and the connection closed, as the lane's callers expect.
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    sendError(request, reply.header('x-request-id', request.id), shuttingDown());
  });
  if (options.connectionLimits) installConnectionGuards(app, options.connectionLimits);
  installJsonBodyParser(app);
  const dashboard = loadDashboardPage({ distDir: options.webDistDir ?? DEFAULT_WEB_DIST, warn: (message) => deps.logger.warn(message) });
  installErrorHandling(app, options.bodyLimit, (request, reply) => answerUnknownPageForBrowser(request, reply, dashboard));
  // Issue 15: 404s naming the right path, CORS for browsers, the cost header, state gauges in /metrics.
  installPathHints(app);
  installCors(app, corsOrigins);
  app.decorate('costHeader', options.costHeader ?? true);
  registerStateMetrics(deps.metrics, deps.db, deps.breakers);

  // Callback-style hooks: an async hook costs a promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.requests.inc({
      route: request.routeOptions.url ?? 'unmatched',
      // Only known model ids (else "other"): a label per unknown string would grow memory without bound.
      model: boundedMetricsModel(deps.state.current, request.metricsModel),
      status: String(reply.statusCode),
    });
    done();
  });

  healthRoutes(app, deps.metrics, options.isReady, options.metricsAccess);
  modelsRoute(app, deps.state);
  chatCompletionsRoute(app, deps);
  anthropicMessagesRoute(app, deps);
  geminiGenerateRoutes(app, deps);
  openAIEndpointRoutes(app, deps);
  storedResponsesRoutes(app, deps);
  void app.register(async (scope) => {
    // Multipart parsing only where uploads are expected; everything else stays JSON.
    await scope.register(multipart, { throwFileSizeLimit: true });
    uploadRoutes(scope, deps);
  });
  // WebSocket upgrades and ws itself load with the first realtime session (realtime-route.ts).
  void app.register(async (scope) => {
    // One upgrade listener for both WebSocket routes.
    const upgrades = realtimeRoute(scope, deps);
    responsesWebSocketRoute(scope, deps, upgrades, options.responsesWebSocket);
  });
  billingRoutes(app, deps.state, deps.accounting);
  mcpRoutes(app, deps);
  const api = installAccountsApi(app, deps, deps.accounts);
  apiPlaygroundRoutes(api.router, deps, api.accounts);
  if (deps.payments) installPaymentsApi(api, deps, deps.payments);
  const optionalPages = { '/pricing': async () => (await pricingPageSetting(api.accounts)).enabled };
  void app.register(async (scope) => webAppRoutes(scope, { distDir: options.webDistDir ?? DEFAULT_WEB_DIST, warn: (message) => deps.logger.warn(message), optionalPages }, dashboard));
  return app;
}
