// Environment variables, validated once at start. Everything else comes from the config file or the database.
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().min(1).default('sqlite:./data/gateway.db'),
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
  /** Circuit breaker: failures within the window that open a channel's circuit, and the cool-down before a probe. */
  BREAKER_FAILURES: z.coerce.number().int().min(1).default(5),
  BREAKER_WINDOW_MS: z.coerce.number().int().min(100).default(30_000),
  BREAKER_COOLDOWN_MS: z.coerce.number().int().min(50).default(5_000),
  /** How often automatically disabled channels are re-tested and re-enabled if they answer; 0 turns it off. */
  CHANNEL_RETEST_INTERVAL_MS: z.coerce.number().int().min(0).default(300_000),
  /** Days usage-log rows are kept (statistics aggregates are kept separately); 0 keeps them forever. */
  USAGE_LOG_RETENTION_DAYS: z.coerce.number().int().min(0).default(90),
  /** Lets the gateway fetch image URLs on private networks (for tests and closed deployments). */
  IMAGE_FETCH_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  /** With Redis: how long an unsettled reservation (its instance died mid-call) keeps holding money back. */
  RESERVATION_TTL_MS: z.coerce.number().int().min(100).default(3_600_000),
  /** Every instance re-reads keys, channels and models this often anyway, in case a change notice was lost. */
  SNAPSHOT_RELOAD_MS: z.coerce.number().int().min(0).default(60_000),
  /** How long SIGTERM waits for requests in flight before closing, in milliseconds. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  // ── Accounts and mail (issue 12) ──
  /** Where users reach the gateway; links in mails start with it. Default http://localhost:$PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** smtp://user:pass@host:587 or smtps://…:465; without it mails are written to DATA_DIR/mail as .eml files. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Model gateway <gateway@localhost>'),
  /** How often queued mail is looked at again (retries), in milliseconds. */
  MAIL_POLL_MS: z.coerce.number().int().min(50).default(2000),
  // ── Payments (issue 14) ──
  /** Stripe's secret API key (sk_live_… or sk_test_…); without it card top-ups are off. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the webhook endpoint registered in Stripe (whsec_…). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Another base URL for the Stripe API (the tests' simulator); default Stripe's own. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** How often low-balance alerts are checked, in milliseconds (0: never). */
  BALANCE_ALERT_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
});

export type Env = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
