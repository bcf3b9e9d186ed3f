// Environment variables, validated once at start. Everything else comes from the config file or the database.
import { join } from 'node:path';
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Defaults to `sqlite:$DATA_DIR/gateway.db` (see readEnv), so DATA_DIR alone moves the database. */
  DATABASE_URL: z.string().min(1).optional(),
  REDIS_URL: z.string().min(1).optional(),
  /** Prefix of every Redis key and channel, so several deployments (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().min(1).default('gw:'),
  /** Encrypts upstream credentials at rest. Generated and kept in DATA_DIR when absent. */
  GATEWAY_SECRET: z.string().min(16, 'GATEWAY_SECRET must be at least 16 characters').optional(),
  GATEWAY_CONFIG: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest accepted JSON body, in bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(20 * 1024 * 1024),
  /** Comma-separated proxy addresses or CIDRs whose X-Forwarded-For is believed. */
  TRUST_PROXY: z.string().optional(),
  /** Milliseconds between write-behind flushes of usage logs and wallet movements. */
  FLUSH_INTERVAL_MS: z.coerce.number().int().min(10).max(5000).default(250),
  /** Finished calls not yet written to the database at which new calls get 503 (docs/failure-modes.md). */
  METERING_QUEUE_LIMIT: z.coerce.number().int().min(100).default(20_000),
  /** Circuit breaker: failures within the window that open a channel's circuit, and the cool-down before a probe. */
  BREAKER_FAILURES: z.coerce.number().int().min(1).default(5),
  BREAKER_WINDOW_MS: z.coerce.number().int().min(100).default(30_000),
  BREAKER_COOLDOWN_MS: z.coerce.number().int().min(50).default(5_000),
  /** Hedge: after this long without a first byte, the next route is started too (models may set their own); 0 is off. */
  HEDGE_AFTER_MS: z.coerce.number().int().min(0).default(0),
  /** How often automatically disabled channels are re-tested and re-enabled if they answer; 0 turns it off. */
  CHANNEL_RETEST_INTERVAL_MS: z.coerce.number().int().min(0).default(300_000),
  /** Days usage-log rows are kept (statistics aggregates are kept separately); 0 keeps them forever. */
  USAGE_LOG_RETENTION_DAYS: z.coerce.number().int().min(0).default(90),
  /** Lets the gateway fetch image URLs on private networks (for tests and closed deployments). */
  IMAGE_FETCH_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  /** With Redis: how long an unsettled reservation (its instance died mid-call) keeps holding money back. */
  RESERVATION_TTL_MS: z.coerce.number().int().min(100).default(3_600_000),
  /**
   * With Redis: an instance whose heartbeat is older than this counts as gone; its charges not yet written are
   * dropped from Redis's wallets, which are rebuilt from the database (docs/decisions/0004).
   */
  REDIS_INSTANCE_TTL_MS: z.coerce.number().int().min(300).default(15_000),
  /** Every instance re-reads keys, channels and models this often anyway, in case a change notice was lost. */
  SNAPSHOT_RELOAD_MS: z.coerce.number().int().min(0).default(60_000),
  /** How long SIGTERM waits for requests in flight before closing, in milliseconds. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  // Browser clients and response metadata (issue 15).
  /** Origins allowed to call /v1 and /v1beta from a browser: comma-separated, or `*`; unset: no CORS. */
  CORS_ORIGINS: z.string().optional(),
  /** Whether each answer carries its cost in micro-USD in an `x-gateway-cost` header (a trailer for streams). */
  COST_HEADER: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  // Slow clients and big answers (docs/failure-modes.md, "Bad input and slow clients").
  /** Longest time to receive a request's headers; slower clients get 408 and are disconnected. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Longest time to receive a whole request, headers and body (not the answer); 408 after it. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  /** Longest silence while a request body is arriving; the connection is closed after it. */
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  // The Responses API's WebSocket mode (GET /v1/responses): open connections per key and in all, and how
  // long one may stay open with nothing asked.
  RESPONSES_WS_MAX_PER_KEY: z.coerce.number().int().min(1).default(16),
  RESPONSES_WS_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1000),
  RESPONSES_WS_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
  /** How long an idle keep-alive connection is kept open between requests (above a load balancer's 60 s idle timeout). */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(72_000),
  /** Open connections one client address may hold (0: no limit); TRUST_PROXY addresses are exempt. */
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(256),
  /** Open connections in all (0: no limit); keep it below the process's open-file limit. */
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(0),
  /** Open connections to one upstream origin (0: no limit). Over HTTP/1.1 each call in flight holds one, so a
   * cap below the concurrent streams queues the rest until one ends (client connections are capped above). */
  UPSTREAM_CONNECTIONS: z.coerce.number().int().min(0).default(0),
  /** Largest non-streamed upstream answer the gateway reads into memory, in bytes; larger ones get 502. */
  UPSTREAM_BODY_LIMIT: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
  // Operations: who may read /metrics, and where it listens.
  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** When set, /metrics is served on this port (and METRICS_HOST) only, not on the API port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // ── Accounts and mail (issue 12) ──
  /** Where users reach the gateway; links in mails start with it. Default http://localhost:$PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** smtp://user:pass@host:587 or smtps://…:465; without it mails are written to DATA_DIR/mail as .eml files. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Model gateway <gateway@localhost>'),
  /** How often queued mail is looked at again (retries), in milliseconds. */
  MAIL_POLL_MS: z.coerce.number().int().min(50).default(2000),
  /** How often low-balance and key-expiry notification mails are checked for, in milliseconds; 0 turns them off. */
  NOTIFY_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  // ── Payments (issue 14) ──
  /** Stripe's secret API key (sk_live_… or sk_test_…); without it card top-ups are off. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the webhook endpoint registered in Stripe (whsec_…). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Another base URL for the Stripe API (the tests' simulator); default Stripe's own. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** Development and tests: every /api JSON answer is checked against its route's declared schema, and one
   * outside it is a 500 naming the route (src/http/api-route.ts). Off in production: it costs a JSON copy. */
  API_CHECK_ANSWERS: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  // ── Observability (issue 33) ──
  /** One structured line per relayed call on standard error (docs/operations.md, "Access log"). */
  ACCESS_LOG: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  // OpenTelemetry's standard variables (src/telemetry/tracing-settings.ts): traces are on when an endpoint is set.
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  OTEL_TRACES_SAMPLER: z.string().optional(),
  OTEL_TRACES_SAMPLER_ARG: z.string().optional(),
  OTEL_BSP_SCHEDULE_DELAY: z.string().optional(),
  OTEL_BSP_MAX_QUEUE_SIZE: z.string().optional(),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.string().optional(),
  OTEL_BSP_EXPORT_TIMEOUT: z.string().optional(),
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: z.string().optional(),
});

export type Env = Omit<z.infer<typeof envSchema>, 'DATABASE_URL'> & { DATABASE_URL: string };

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const { DATABASE_URL, ...rest } = parsed.data;
  return { ...rest, DATABASE_URL: DATABASE_URL ?? `sqlite:${join(rest.DATA_DIR, 'gateway.db')}` };
}
