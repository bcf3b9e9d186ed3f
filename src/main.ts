// The gateway's entry point: `npm start [-- --config FILE]`.
import { parseArgs } from 'node:util';
import { readEnv } from './config/env.ts';
import { ConfigFileError } from './config/load-config-file.ts';
import { startGateway } from './start-gateway.ts';
import { StartupError } from './config/startup-error.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' } }, allowPositionals: false });
  const env = readEnv();
  const configFile = values.config ?? env.GATEWAY_CONFIG;
  const gateway = await startGateway({ env, configFile });
  gateway.logger.info({ url: gateway.url }, `gateway listening on ${gateway.url}`);

  const shutdown = (signal: string) => {
    gateway.logger.info({ signal }, 'shutting down: finishing requests in flight');
    gateway.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        gateway.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Config and environment errors are the user's to fix: print them plainly, without a stack.
  if (error instanceof ConfigFileError || error instanceof StartupError || (error instanceof Error && error.message.startsWith('Invalid environment'))) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`The gateway could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
