// Runs the gateway as its own process (`src/main.ts`, as `npm start` does), for tests about what happens
// to a fresh process or to one that is killed: crashes on first use, kill -9, restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** Everything the process wrote to stderr, for assertions about crashes. */
  stderr(): string;
}

const MAIN = join(import.meta.dirname, '../../src/main.ts');

/** Writes the config into dir and starts a gateway on a free port; resolves once it listens. */
export async function startGatewayProcess(dir: string, config: object, env: Record<string, string>, nodeArgs: string[] = []): Promise<GatewayProcess> {
  const configFile = join(dir, 'gateway.yaml');
  await writeFile(configFile, stringify(config));
  const child = spawn(process.execPath, [...nodeArgs, MAIN, '--config', configFile], {
    env: { ...process.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', GATEWAY_SECRET: 'test-secret-test-secret-test-secret', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    // Logs are JSON lines on stderr (stdout carries only generated key secrets).
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /gateway listening on (http:\/\/\S+?)"/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}) before listening: ${stderr}`)));
  });
  return { url, child, exited, stderr: () => stderr };
}
