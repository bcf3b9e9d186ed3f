// buildApp wires plugins and routes around already-built services. It never listens: main.ts and the
// tests do, on a port of their choosing.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RelayDeps } from './relay/relay-deps.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { chatCompletionsRoute } from './http/routes/chat-completions-route.ts';
import { modelsRoute } from './http/routes/models-route.ts';
import { healthRoutes } from './http/routes/health-route.ts';
import { billingRoutes } from './http/routes/billing-route.ts';
import { statsRoute } from './http/routes/stats-route.ts';
import { adminRoutes } from './http/routes/admin-routes.ts';
import { openAIEndpointRoutes } from './http/routes/openai-endpoint-routes.ts';
import { uploadRoutes } from './http/routes/upload-routes.ts';
import { anthropicMessagesRoute } from './http/routes/anthropic-messages-route.ts';
import { geminiGenerateRoutes } from './http/routes/gemini-generate-route.ts';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import { chooseRealtimeProtocol, realtimeRoute } from './http/routes/realtime-route.ts';
import type { AnnounceChange } from './cluster/invalidation-bus.ts';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './db/schema.ts';
import { installAccountsApi, type AccountsOptions } from './http/routes/api-routes.ts';
import { installPaymentsApi, type PaymentsOptions } from './http/routes/api-payments-install.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The model a request named, for the requests metric. */
    metricsModel?: string;
  }
}

export interface AppOptions {
  bodyLimit: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs), or none. */
  trustProxy: string[] | undefined;
  isReady: () => boolean;
}

export interface AppDeps extends RelayDeps {
  logger: Logger;
  db: Kysely<DatabaseSchema>;
  announce: AnnounceChange;
  /** Accounts and the self-service /api (issue 12); absent: not installed. */
  accounts?: AccountsOptions;
  /** Top-ups, redemption codes and balance alerts (issue 14); needs accounts. */
  payments?: PaymentsOptions;
}

export function buildApp(deps: AppDeps, options: AppOptions): FastifyInstance {
  const app = Fastify({
    // pino's Logger and Fastify's logger type differ only in generics; the instance is the same.
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Requests are counted in metrics and the usage log, not logged one by one.
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger either (Fastify makes one even with request logging off, and with our
    // redaction paths it cost more than the key lookup): our log lines carry requestId themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy && options.trustProxy.length > 0 ? options.trustProxy : false,
    genReqId: () => `req_${randomUUID().replaceAll('-', '')}`,
    requestIdHeader: false,
    return503OnClosing: true,
  });
  installJsonBodyParser(app);
  installErrorHandling(app, options.bodyLimit);

  // Callback-style hooks: an async hook costs a promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.requests.inc({
      route: request.routeOptions.url ?? 'unmatched',
      model: request.metricsModel ?? '',
      status: String(reply.statusCode),
    });
    done();
  });

  healthRoutes(app, deps.metrics, options.isReady);
  modelsRoute(app, deps.state);
  chatCompletionsRoute(app, deps);
  anthropicMessagesRoute(app, deps);
  geminiGenerateRoutes(app, deps);
  openAIEndpointRoutes(app, deps);
  void app.register(async (scope) => {
    // Multipart parsing only where uploads are expected; everything else stays JSON.
    await scope.register(multipart, { throwFileSizeLimit: true });
    uploadRoutes(scope, deps);
  });
  void app.register(async (scope) => {
    await scope.register(websocket, { options: { handleProtocols: (protocols) => chooseRealtimeProtocol(protocols), maxPayload: 16 * 1024 * 1024 } });
    realtimeRoute(scope, deps);
  });
  billingRoutes(app, deps.state, deps.accounting);
  statsRoute(app, deps.state, deps.db);
  adminRoutes(app, deps);
  if (deps.accounts) {
    const api = installAccountsApi(app, deps, deps.accounts);
    if (deps.payments) installPaymentsApi(app, api, deps, deps.payments);
  }
  return app;
}
