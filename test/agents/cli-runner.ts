// Runs a real coding-agent CLI (Claude Code, Gemini CLI, and Codex in part 2) headless, as a test client of
// the gateway. Each run gets a sandbox: a temporary HOME (the CLI's settings, credentials, caches and
// session files land there, never in the developer's), a temporary work folder the agent runs in, and an
// environment built from nothing but what the caller gives plus the basics a process needs (PATH, LANG):
// a developer's ANTHROPIC_API_KEY or proxy settings never reach the CLI.
//
// Every outbound connection that is not to 127.0.0.1 goes to a trap: HTTP(S)_PROXY points at a local proxy
// that refuses every request and records where it was going (`outsideAttempts`), so a test can assert that
// the settings really keep the CLI off the network instead of trusting them. NO_PROXY lets the gateway
// through.
//
// The CLI runs in its own process group; on timeout the whole group gets SIGKILL (a CLI's shell tool or
// helper processes die with it) and the result says `timedOut`.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** node_modules/.bin of this repository: the pinned CLIs, and Node 24 for the CLIs whose shebang asks for node. */
const PROJECT_BIN = resolve(import.meta.dirname, '../../node_modules/.bin');

export interface AgentSandbox {
  /** The CLI's HOME (also CODEX_HOME's parent and the XDG folders' root). */
  home: string;
  /** The folder the CLI runs in, where the agent's tools read and write. */
  work: string;
  /** Writes a file under the sandbox, creating its folders (e.g. `home/.claude/settings.json`). */
  writeFile(path: string, content: string | object): Promise<string>;
  dispose(): Promise<void>;
}

export async function createAgentSandbox(label: string): Promise<AgentSandbox> {
  const root = await mkdtemp(join(tmpdir(), `agent-${label}-`));
  const home = join(root, 'home');
  const work = join(root, 'work');
  await mkdir(home, { recursive: true });
  await mkdir(work, { recursive: true });
  return {
    home,
    work,
    async writeFile(path, content) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
      return path;
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

interface CliRunOptions {
  /** An executable path, or a name found in PROJECT_BIN. */
  command: string;
  args: string[];
  sandbox: AgentSandbox;
  /** The CLI's own variables (base URL, key, model, its telemetry switches). */
  env?: Record<string, string>;
  /** Kills the process group after this long. */
  timeoutMs: number;
  /** Written to stdin, which is then closed (a headless CLI must not wait for a terminal). */
  stdin?: string;
  /** Where outside connections go; by default the run's own trap proxy. */
  trap?: OutsideTrap;
}

interface CliResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** host:port of every connection the CLI tried outside 127.0.0.1 (through the proxy variables it honours). */
  outsideAttempts: string[];
}

export async function runCli(options: CliRunOptions): Promise<CliResult> {
  const ownTrap = options.trap ? null : await startOutsideTrap();
  const trap = options.trap ?? ownTrap!;
  const { home, work } = options.sandbox;
  const env: Record<string, string> = {
    PATH: `${PROJECT_BIN}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    USER: 'agent',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    TMPDIR: tmpdir(),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    HTTP_PROXY: trap.url,
    HTTPS_PROXY: trap.url,
    http_proxy: trap.url,
    https_proxy: trap.url,
    NO_PROXY: '127.0.0.1,localhost,::1',
    no_proxy: '127.0.0.1,localhost,::1',
    ...options.env,
  };
  const command = options.command.includes('/') ? options.command : join(PROJECT_BIN, options.command);
  try {
    return await new Promise<CliResult>((resolvePromise, reject) => {
      const child = spawn(command, options.args, { cwd: work, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let timedOut = false;
      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is already gone
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, options.timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (exitCode, signal) => {
        clearTimeout(timer);
        // Helpers the CLI left behind (a backgrounded shell, a language server) go with it.
        killGroup();
        resolvePromise({
          exitCode, signal, timedOut,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          outsideAttempts: [...trap.attempts],
        });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin ?? '');
    });
  } finally {
    await ownTrap?.close();
  }
}

/** A one-line account of a run for assertion messages: exit, timeout and the output's tail. */
export function describeRun(result: CliResult): string {
  const tail = (text: string) => text.length > 3000 ? `…${text.slice(-3000)}` : text;
  return `exit ${result.exitCode}${result.signal ? ` (${result.signal})` : ''}${result.timedOut ? ', timed out' : ''}\n`
    + `--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`;
}

interface OutsideTrap {
  /** http://127.0.0.1:PORT */
  url: string;
  /** host:port of each connection asked for, in order. */
  attempts: string[];
  close(): Promise<void>;
}

/** A proxy that lets nothing through: CONNECT and plain requests are refused with 403 and recorded. */
async function startOutsideTrap(): Promise<OutsideTrap> {
  const attempts: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    attempts.push(request.headers.host ?? request.url ?? '?');
    response.writeHead(403, { 'content-type': 'text/plain' }).end('outside traffic is refused in tests');
  });
  server.on('connect', (request, socket: Socket) => {
    attempts.push(request.url ?? '?');
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    // A refused client may reset the connection; that ends its attempt, not the test.
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    close: () => new Promise<void>((resolvePromise) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolvePromise());
    }),
  };
}
