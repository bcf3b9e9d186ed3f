// Builds every service from the environment, applies the config file and listens. main.ts and the
// end-to-end tests both start the gateway through here, so tests run exactly what users run.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import type { Env } from './config/env.ts';
import { resolveGatewaySecret } from './config/gateway-secret.ts';
import { loadConfigFile } from './config/load-config-file.ts';
import { applyConfig } from './config/apply-config.ts';
import { createSecretBox } from './accounts/secret-box.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createGatewayState, type GatewayState } from './gateway-state.ts';
import { createUsageRecorder, type UsageRecorder } from './metering/usage-recorder.ts';
import { createMeteringBatchWriter } from './metering/metering-batch-writer.ts';
import { createUpstreamAgents } from './upstream/upstream-agent.ts';
import type { Accounting } from './metering/accounting.ts';
import { createMemoryAccounting } from './metering/memory-accounting.ts';
import { databaseAccountingStore } from './metering/accounting-store.ts';
import { createMemoryRateLimiter, type RateLimiter } from './metering/rate-limiter.ts';
import { createRedisAccounting } from './metering/redis-accounting.ts';
import { createRedisRateLimiter } from './metering/redis-rate-limiter.ts';
import { connectRedis } from './cluster/redis-connection.ts';
import { createLocalInvalidationBus, createRedisInvalidationBus, type InvalidationBus, type InvalidationEvent } from './cluster/invalidation-bus.ts';
import { createMetrics } from './http/metrics.ts';
import { buildApp } from './app.ts';
import { createCircuitBreakers } from './routing/circuit-breaker.ts';
import { shareCircuitBreakers } from './cluster/shared-circuit-breakers.ts';
import { randomUUID } from 'node:crypto';
import type { RoutedChannel } from './routing/routing-table.ts';
import { autoDisableChannel } from './admin/admin-channels.ts';
import { scheduleRetests } from './routing/retest-schedule.ts';
import { scheduleRetention } from './metering/retention.ts';

export interface RunningGateway {
  app: FastifyInstance;
  /** http://host:port of the listening server. */
  url: string;
  database: Database;
  state: GatewayState;
  recorder: UsageRecorder;
  accounting: Accounting;
  logger: Logger;
  /** Stops accepting, lets requests in flight finish, flushes logs and charges, closes everything. */
  stop(): Promise<void>;
}

export interface StartOptions {
  env: Env;
  configFile?: string | undefined;
  logger?: Logger;
}

export async function startGateway({ env, configFile, logger: givenLogger }: StartOptions): Promise<RunningGateway> {
  const logger = givenLogger ?? pino({
    level: env.LOG_LEVEL,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-goog-api-key"]', '*.apiKey', '*.api_key'],
  });
  const config = configFile ? await loadConfigFile(configFile) : null;
  const secrets = createSecretBox(await resolveGatewaySecret(env.GATEWAY_SECRET, env.DATA_DIR));
  const database = await openDatabase(env.DATABASE_URL);
  let ready = false;
  try {
    await migrateToLatest(database.db, database.engine);
    if (config) await applyConfig(database.db, config, secrets, logger);
  } catch (error) {
    await database.close();
    throw error;
  }
  const state = await createGatewayState(database.db, secrets);
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
  const recorder = createUsageRecorder({ writer: createMeteringBatchWriter(database.db, database.sqliteFile), logger, accounting, rateLimiter, flushIntervalMs: env.FLUSH_INTERVAL_MS });
  const agents = createUpstreamAgents();
  const metrics = createMetrics();
  const breakers = createCircuitBreakers({ failureThreshold: env.BREAKER_FAILURES, windowMs: env.BREAKER_WINDOW_MS, cooldownMs: env.BREAKER_COOLDOWN_MS });
  const stopSharingBreakers = env.REDIS_URL ? await shareCircuitBreakers(breakers, env.REDIS_URL, env.REDIS_PREFIX, randomUUID()) : async () => {};
  const disableChannel = async (channel: RoutedChannel, reason: string) => {
    logger.error({ channel: channel.name, reason }, 'channel disabled: the upstream refused its credentials');
    await autoDisableChannel(database.db, announce, channel.id, reason);
  };
  const app = buildApp({ agents, state, recorder, logger, metrics, accounting, rateLimiter, announce, breakers, disableChannel, db: database.db, imageFetchAllowPrivate: env.IMAGE_FETCH_ALLOW_PRIVATE,
    accounts: { publicUrl: env.PUBLIC_URL, smtpUrl: env.SMTP_URL, mailFrom: env.MAIL_FROM, dataDir: env.DATA_DIR, secrets, mailPollMs: env.MAIL_POLL_MS },
    payments: { stripeSecretKey: env.STRIPE_SECRET_KEY, stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET, stripeApiBase: env.STRIPE_API_BASE, balanceAlertIntervalMs: env.BALANCE_ALERT_INTERVAL_MS } }, {
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY?.split(',').map((entry) => entry.trim()).filter(Boolean),
    isReady: () => ready,
  });
  const reloadTimer = env.SNAPSHOT_RELOAD_MS > 0
    ? setInterval(() => state.reload().catch((error: unknown) => logger.error({ err: error }, 'periodic reload failed')), env.SNAPSHOT_RELOAD_MS)
    : undefined;
  reloadTimer?.unref();
  const stopRetention = scheduleRetention(database.db, logger, env.USAGE_LOG_RETENTION_DAYS);
  const stopRetests = scheduleRetests({ db: database.db, agents, state, announce, logger }, env.CHANNEL_RETEST_INTERVAL_MS);
  await app.listen({ port: env.PORT, host: env.HOST });
  ready = true;
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      ready = false;
      stopRetests();
      stopRetention();
      clearInterval(reloadTimer);
      await closeWithin(app, env.SHUTDOWN_GRACE_MS);
      await recorder.close();
      await stopSharingBreakers();
      await shared.close();
      await agents.close();
      await database.close();
    })();
    return stopping;
  };
  return { app, url, database, state, recorder, accounting, logger, stop };
}

/** Waits for requests in flight up to the grace period, then cuts the rest so shutdown always ends. */
async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
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
  accounting: Accounting;
  rateLimiter: RateLimiter;
  bus: InvalidationBus;
  close(): Promise<void>;
}

/** Counters and invalidations: in memory for one instance, in Redis when REDIS_URL is set. */
async function createSharedServices(env: Env, database: Database): Promise<SharedServices> {
  const store = databaseAccountingStore(database.db);
  if (!env.REDIS_URL) {
    const rateLimiter = createMemoryRateLimiter();
    return { accounting: createMemoryAccounting(store), rateLimiter, bus: createLocalInvalidationBus(), close: () => rateLimiter.close() };
  }
  const redis = await connectRedis(env.REDIS_URL, env.REDIS_PREFIX);
  const bus = await createRedisInvalidationBus(env.REDIS_URL, env.REDIS_PREFIX);
  return {
    accounting: createRedisAccounting(redis, store, env.RESERVATION_TTL_MS),
    rateLimiter: createRedisRateLimiter(redis),
    bus,
    async close() {
      await bus.close();
      await redis.close();
    },
  };
}
