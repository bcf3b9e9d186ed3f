// Starting the benchmark's processes: each on core 0 (`taskset`), each printing `READY <url>` when it
// listens. The file limit is raised for processes that hold thousands of sockets (the streams phase).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface BenchServer {
  url: string;
  pid: number;
  child: ChildProcess;
}

/** Open files allowed to the benchmarked processes: 10,000 streams hold 20,000 sockets in the gateway. */
export const BENCH_FILE_LIMIT = 65536;

export function startServer(args: string[], nodeFlags: string[], env: NodeJS.ProcessEnv = process.env): Promise<BenchServer> {
  // Raises the soft and hard limits where allowed (root, or a high enough hard limit); otherwise the soft
  // limit up to the hard one.
  const command = `ulimit -n ${BENCH_FILE_LIMIT} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec taskset -c 0 "$0" "$@"`;
  const child = spawn('sh', ['-c', command, process.execPath, ...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      // `exec` keeps the pid: the shell becomes taskset, which becomes node.
      if (line.startsWith('READY ')) resolve({ url: line.slice(6).trim(), pid: child.pid!, child });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

export function stopServers(servers: (BenchServer | undefined)[]): void {
  for (const server of servers) server?.child.kill('SIGTERM');
}
