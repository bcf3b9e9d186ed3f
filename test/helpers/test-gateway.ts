// Starts the real gateway (same wiring as `npm start`) on a free port, with a config file and a fresh
// SQLite database in a temporary directory, for end-to-end tests.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Logger } from 'pino';
import { readEnv } from '../../src/config/env.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';

export interface TestGateway extends RunningGateway {
  dir: string;
  configFile: string;
  /** Stops the gateway and removes its directory. */
  dispose(): Promise<void>;
}

interface TestGatewayOptions {
  /** Extra environment, e.g. DATABASE_URL for PostgreSQL. */
  env?: Record<string, string>;
  /** A logger of the test's own (e.g. one that collects every line). */
  logger?: Logger;
}

export async function startTestGateway(config: object, options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-test-'));
  const configFile = join(dir, 'gateway.yaml');
  await writeFile(configFile, stringify(config));
  const env = readEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`,
    LOG_LEVEL: 'silent',
    GATEWAY_SECRET: 'test-secret-test-secret-test-secret',
    FLUSH_INTERVAL_MS: '50',
    SHUTDOWN_GRACE_MS: '2000',
    // Every /api answer a test provokes is checked against its route's declared schema.
    API_CHECK_ANSWERS: 'true',
    ...options.env,
  });
  const gateway = await startGateway({ env, configFile, ...(options.logger ? { logger: options.logger } : {}) });
  return {
    ...gateway,
    dir,
    configFile,
    async dispose() {
      await gateway.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A syntactically valid gateway key: `sk-` and 48 base62 characters, derived from a label for readability. */
export function testKey(label: string): string {
  const base = label.replace(/[^0-9A-Za-z]/g, '');
  return `sk-${(base + 'x'.repeat(48)).slice(0, 48)}`;
}
