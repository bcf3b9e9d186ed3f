// Builds every service from the environment, applies the config file and listens. main.ts and the
// end-to-end tests both start the gateway through here, so tests run exactly what users run.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import type { Env } from './config/env.ts';
import { resolveGatewaySecret } from './config/gateway-secret.ts';
import { loadConfigFile } from './config/load-config-file.ts';
import { applyConfig } from './config/apply-config.ts';
import { logStartupWarnings } from './config/startup-warnings.ts';
import { createSecretBox } from './accounts/secret-box.ts';
import { useSecretForReasoningSeals } from './formats/openai-responses/openai-responses-reasoning-seal.ts';
import { describeDatabase, openDatabase, type Database } from './db/database.ts';
import { checkSeal, sealDatabase } from './config/secret-seal.ts';
import { createResponseOwners } from './responses/response-owners.ts';
import { startMetricsServer } from './http/metrics-access.ts';
import { destroyTakenStreams } from './http/taken-stream.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createGatewayState, type GatewaySnapshot, type GatewayState } from './gateway-state.ts';
import { createUsageRecorder, type UsageRecorder } from './metering/usage-recorder.ts';
import { createMeteringBatchWriter } from './metering/metering-batch-writer.ts';
import { gateAdmissionOnMeteringBacklog } from './metering/metering-backpressure.ts';
import { createUpstreamAgents } from './upstream/upstream-agent.ts';
import { loadTracing } from './telemetry/load-tracing.ts';
import { createAccessLog } from './telemetry/access-log.ts';
import type { Accounting } from './metering/accounting.ts';
import { createMemoryAccounting } from './metering/memory-accounting.ts';
import { databaseAccountingStore } from './metering/accounting-store.ts';
import { createMemoryRateLimiter, type RateLimiter } from './metering/rate-limiter.ts';
import { createRedisAccounting } from './metering/redis-accounting.ts';
import { withMemberCaps } from './metering/capped-accounting.ts';
import { createMemoryMemberCaps } from './metering/member-caps.ts';
import { createRedisMemberCaps } from './metering/redis-member-caps.ts';
import { sumMemberSpendSince } from './db/repositories/organisations.ts';
import { createRedisRateLimiter } from './metering/redis-rate-limiter.ts';
import { connectRedis, type RedisContext } from './cluster/redis-connection.ts';
import { createLocalInvalidationBus, createRedisInvalidationBus, type AnnounceChange, type InvalidationBus, type InvalidationEvent } from './cluster/invalidation-bus.ts';
import { createMetrics } from './http/metrics.ts';
import { buildApp } from './app.ts';
import { parseCorsOrigins } from './http/cors.ts';
import { createCircuitBreakers } from './routing/circuit-breaker.ts';
import { shareCircuitBreakers } from './cluster/shared-circuit-breakers.ts';
import { randomUUID } from 'node:crypto';
import type { RoutedChannel } from './routing/routing-table.ts';
import { autoDisableChannel } from './admin/admin-channels.ts';
import { scheduleRetests } from './routing/retest-schedule.ts';
import { scheduleRetention } from './metering/retention.ts';
import { IDLE_WATCH_DEFAULTS, releaseMemory, watchIdleMemory } from './idle-memory.ts';

/** Memory-reducing collections once start-up is done (src/idle-memory.ts). */
const STARTUP_RELEASE_ROUNDS = 3;

export interface RunningGateway {
  app: FastifyInstance;
  /** http://host:port of the listening server. */
  url: string;
  database: Database;
  state: GatewayState;
  recorder: UsageRecorder;
  accounting: Accounting;
  logger: Logger;
  /** The separate /metrics address (METRICS_PORT), or null when /metrics is on the API port. */
  metricsUrl: string | null;
  /** Stops accepting, lets requests in flight finish, flushes logs and charges, closes everything. */
  stop(): Promise<void>;
}

interface StartOptions {
  env: Env;
  configFile?: string | undefined;
  logger?: Logger;
}

export async function startGateway({ env, configFile, logger: givenLogger }: StartOptions): Promise<RunningGateway> {
  // The log stream is standard error; standard output carries only what an operator must see once
  // (generated key secrets), so shipping the logs never ships a secret.
  const logger = givenLogger ?? pino({
    level: env.LOG_LEVEL,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-goog-api-key"]', '*.apiKey', '*.api_key', 'req.headers.cookie', 'req.headers["x-csrf-token"]', '*.password'],
  }, pino.destination(2));
  const config = configFile ? await loadConfigFile(configFile) : null;
  const gatewaySecret = await resolveGatewaySecret(env.GATEWAY_SECRET, env.DATA_DIR);
  const secrets = createSecretBox(gatewaySecret);
  // Reasoning state carried in Responses encrypted_content opens on every instance sharing the secret.
  useSecretForReasoningSeals(gatewaySecret);
  const database = await openDatabase(env.DATABASE_URL);
  let ready = false;
  try {
    // Refused before anything is written: a database sealed with another GATEWAY_SECRET.
    await checkSeal(database.db, gatewaySecret, secrets, describeDatabase(env.DATABASE_URL));
    await migrateToLatest(database.db, database.engine);
    await sealDatabase(database.db, gatewaySecret, describeDatabase(env.DATABASE_URL));
    if (config) await applyConfig(database.db, config, secrets, logger);
  } catch (error) {
    await database.close();
    throw error;
  }
  // A channel whose credential cannot be decrypted is left out of routing, and disabled with the reason
  // (once per channel and process), so the admin channel list shows it; the rest of the gateway runs on.
  const disabledUnreadable = new Set<number>();
  const loggedUnreadableKeys = new Set<number>();
  const disableUnreadable = (snapshot: GatewaySnapshot) => {
    for (const [keyId, reason] of snapshot.keys.unreadableKeys) {
      if (loggedUnreadableKeys.has(keyId)) continue;
      loggedUnreadableKeys.add(keyId);
      logger.error({ keyId, reason }, 'key restricted to nothing: a list setting of it cannot be read');
    }
    for (const [channelId, reason] of snapshot.routing.unreadableChannels) {
      if (disabledUnreadable.has(channelId)) continue;
      disabledUnreadable.add(channelId);
      logger.error({ channelId, reason }, 'channel disabled: its upstream credential cannot be decrypted');
      // Deferred: the state being built is not assigned yet, and the announce reloads it.
      setImmediate(() => {
        autoDisableChannel(database.db, (event) => announceRef.current(event), channelId, reason)
          .catch((error: unknown) => logger.error({ err: error, channelId }, 'recording an unreadable channel as disabled failed'))
          .finally(() => disabledUnreadable.delete(channelId));
      });
    }
  };
  const announceRef: { current: AnnounceChange } = { current: async () => {} };
  const state = await createGatewayState(database.db, secrets, disableUnreadable);
  logStartupWarnings(logger, config, state.current);
  const shared = await createSharedServices(env, database);
  const { accounting, rateLimiter, bus } = shared;
  bus.subscribe((event) => {
    state.reload().catch((error: unknown) => logger.error({ err: error, reason: event.reason }, 'reload after a change failed'));
  });
  // The instance that made a change reloads before answering, so its own next request already sees it.
  const announce = async (event: InvalidationEvent) => {
    await state.reload();
    await bus.publish(event);
  };
  announceRef.current = announce;
  // Responses the gateway keeps itself live as long as the usage log (0: until deleted).
  const responseOwners = createResponseOwners({ db: database.db, logger, redis: shared.redis, flushIntervalMs: env.FLUSH_INTERVAL_MS, keptRetentionMs: env.USAGE_LOG_RETENTION_DAYS > 0 ? env.USAGE_LOG_RETENTION_DAYS * 86_400_000 : null });
  const metrics = createMetrics();
  const recorder = createUsageRecorder({
    writer: createMeteringBatchWriter(database.db, env.DATABASE_URL),
    logger,
    accounting,
    rateLimiter,
    flushIntervalMs: env.FLUSH_INTERVAL_MS,
    queueLimit: env.METERING_QUEUE_LIMIT,
    metricsRegistry: metrics.registry,
  });
  // The metering worker is up, and its connection proven, before the first call can finish.
  try {
    await recorder.start();
  } catch (error) {
    await recorder.close().catch(() => {});
    await shared.close();
    await database.close();
    throw error;
  }
  const agents = createUpstreamAgents(env.UPSTREAM_CONNECTIONS, env.UPSTREAM_BODY_LIMIT);
  // Null (and no OpenTelemetry module loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracer = await loadTracing(env, logger);
  const accessLog = env.ACCESS_LOG ? createAccessLog() : null;
  const breakers = createCircuitBreakers({ failureThreshold: env.BREAKER_FAILURES, windowMs: env.BREAKER_WINDOW_MS, cooldownMs: env.BREAKER_COOLDOWN_MS });
  const stopSharingBreakers = env.REDIS_URL ? await shareCircuitBreakers(breakers, env.REDIS_URL, env.REDIS_PREFIX, randomUUID()) : async () => {};
  const disableChannel = async (channel: RoutedChannel, reason: string) => {
    logger.error({ channel: channel.name, reason }, 'channel disabled: the upstream refused its credentials');
    await autoDisableChannel(database.db, announce, channel.id, reason);
  };
  // Admission refuses new calls while the metering backlog is at its bound (metering-backpressure.ts).
  const admissionRateLimiter = gateAdmissionOnMeteringBacklog(rateLimiter, recorder);
  const trustProxy = env.TRUST_PROXY?.split(',').map((entry) => entry.trim()).filter(Boolean);
  const app = buildApp({ agents, state, recorder, logger, metrics, accounting, rateLimiter: admissionRateLimiter, announce, breakers, disableChannel, db: database.db, imageFetchAllowPrivate: env.IMAGE_FETCH_ALLOW_PRIVATE, hedgeAfterMs: env.HEDGE_AFTER_MS, responseOwners, tracer, accessLog, redis: shared.redis,
    accounts: { publicUrl: env.PUBLIC_URL, smtpUrl: env.SMTP_URL, mailFrom: env.MAIL_FROM, dataDir: env.DATA_DIR, secrets, mailPollMs: env.MAIL_POLL_MS, notifyIntervalMs: env.NOTIFY_INTERVAL_MS, checkAnswers: env.API_CHECK_ANSWERS },
    payments: { stripeSecretKey: env.STRIPE_SECRET_KEY, stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET, stripeApiBase: env.STRIPE_API_BASE } }, {
    bodyLimit: env.BODY_LIMIT,
    metricsAccess: env.METRICS_PORT === undefined ? { token: env.METRICS_TOKEN } : null,
    trustProxy,
    isReady: () => ready,
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    costHeader: env.COST_HEADER,
    responsesWebSocket: { maxPerKey: env.RESPONSES_WS_MAX_PER_KEY, maxConnections: env.RESPONSES_WS_MAX_CONNECTIONS, idleTimeoutMs: env.RESPONSES_WS_IDLE_TIMEOUT_MS },
    connectionLimits: {
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      bodyIdleTimeoutMs: env.BODY_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerIp: env.MAX_CONNECTIONS_PER_IP,
      maxConnections: env.MAX_CONNECTIONS,
      exemptAddresses: trustProxy ?? [],
    },
  });
  const reloadTimer = env.SNAPSHOT_RELOAD_MS > 0
    ? setInterval(() => state.reload().catch((error: unknown) => logger.error({ err: error }, 'periodic reload failed')), env.SNAPSHOT_RELOAD_MS)
    : undefined;
  reloadTimer?.unref();
  const stopRetention = scheduleRetention(database.db, logger, env.USAGE_LOG_RETENTION_DAYS);
  const stopRetests = scheduleRetests({ db: database.db, agents, state, announce, logger }, env.CHANNEL_RETEST_INTERVAL_MS);
  // Fastify registers its plugins and routes when it is made ready: only then is start-up's garbage (and
  // its run-once code) all there to give back, before the first request could be delayed by it. Three
  // rounds: each also ages unused bytecode a step, and the code that ran once at start-up goes with it.
  await app.ready();
  const releaseStarted = performance.now();
  if (releaseMemory(STARTUP_RELEASE_ROUNDS)) logger.debug({ ms: Math.round(performance.now() - releaseStarted) }, 'start-up memory given back');
  await app.listen({ port: env.PORT, host: env.HOST });
  const metricsServer = env.METRICS_PORT === undefined ? null : await startMetricsServer(metrics, { token: env.METRICS_TOKEN }, env.METRICS_HOST, env.METRICS_PORT);
  ready = true;
  const stopIdleWatch = watchIdleMemory({
    ...IDLE_WATCH_DEFAULTS,
    onRelease: (before, after) => logger.debug({ heapCommittedBefore: before, heapCommittedAfter: after }, 'idle: heap memory given back'),
  });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      ready = false;
      stopIdleWatch();
      stopRetests();
      stopRetention();
      clearInterval(reloadTimer);
      await closeWithin(app, env.SHUTDOWN_GRACE_MS);
      // A whole answer is recorded in a setImmediate queued right after its write (src/relay): let the
      // last ones run before the queues close, or calls answered in the final turn would go unrecorded.
      await new Promise((resolve) => setImmediate(resolve));
      await metricsServer?.close();
      await responseOwners.close();
      await recorder.close();
      await tracer?.shutdown();
      accessLog?.flush();
      await stopSharingBreakers();
      await shared.close();
      await agents.close();
      await database.close();
    })();
    return stopping;
  };
  return { app, url, metricsUrl: metricsServer?.url ?? null, database, state, recorder, accounting, logger, stop };
}

/** Waits for requests in flight up to the grace period, then cuts the rest so shutdown always ends. */
async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => {
    app.server.closeAllConnections();
    // Streams run off Node's connection list (src/http/taken-stream.ts): cut as well.
    destroyTakenStreams(app.server);
  }, graceMs);
  // A keep-alive connection whose last response just finished would hold the close open; drop such
  // connections as they become idle, while busy ones finish their work.
  const idleSweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    clearInterval(idleSweeper);
  }
}

interface SharedServices {
  /** The shared Redis connection, when REDIS_URL is set. */
  redis?: RedisContext;
  accounting: Accounting;
  rateLimiter: RateLimiter;
  bus: InvalidationBus;
  close(): Promise<void>;
}

/** Counters and invalidations: in memory for one instance, in Redis when REDIS_URL is set. */
async function createSharedServices(env: Env, database: Database): Promise<SharedServices> {
  const store = databaseAccountingStore(database.db);
  // Organisation members' monthly caps start from what their keys cost this month (read once per member and month).
  const monthSpend = (walletUserId: number, memberUserId: number, since: number) => sumMemberSpendSince(database.db, walletUserId, memberUserId, since);
  if (!env.REDIS_URL) {
    const rateLimiter = createMemoryRateLimiter();
    return { accounting: withMemberCaps(createMemoryAccounting(store), createMemoryMemberCaps(monthSpend)), rateLimiter, bus: createLocalInvalidationBus(), close: () => rateLimiter.close() };
  }
  const redis = await connectRedis(env.REDIS_URL, env.REDIS_PREFIX);
  const bus = await createRedisInvalidationBus(env.REDIS_URL, env.REDIS_PREFIX);
  const accounting = withMemberCaps(await createRedisAccounting(redis, store, env.RESERVATION_TTL_MS, env.REDIS_INSTANCE_TTL_MS), createRedisMemberCaps(redis, monthSpend, env.RESERVATION_TTL_MS));
  return {
    redis,
    accounting,
    rateLimiter: createRedisRateLimiter(redis),
    bus,
    async close() {
      await bus.close();
      await accounting.close();
      await redis.close();
    },
  };
}
