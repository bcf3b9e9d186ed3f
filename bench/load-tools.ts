// The load generators of `npm run bench`, each run on core 1 (the servers are on core 0): wrk for
// throughput, the open-loop client for latency at a fixed rate, stream-load.ts for streamed events, and
// streams-scale.ts for thousands of concurrent streams.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_FILE_LIMIT } from './bench-servers.ts';

const here = import.meta.dirname;

export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return; // wrk --version exits 1 but exists
    process.stdout.write('installing wrk (Debian package)…\n');
    execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
  }
}

/** Requests per second and requests completed, 1 thread, 32 connections; any non-2xx answer fails the run. */
export function runWrk(url: string, key: string, body: string, seconds: number, dir: string): { rps: number; requests: number } {
  const script = join(dir, 'post.lua');
  writeFileSync(script, [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(body)}`,
    'wrk.headers["Content-Type"] = "application/json"',
    `wrk.headers["Authorization"] = "Bearer ${key}"`,
  ].join('\n'));
  const output = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c32', `-d${seconds}s`, '-s', script, url], { encoding: 'utf8' });
  if (/Non-2xx/.test(output)) throw new Error(`wrk saw errors:\n${output}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const count = /(\d+) requests in/.exec(output);
  if (!rate || !count) throw new Error(`cannot read wrk output:\n${output}`);
  return { rps: Number(rate[1]), requests: Number(count[1]) };
}

export function runOpenLoop(url: string, key: string, bodyFile: string, rate: number, seconds: number, firstByte: boolean): { p50: number; p99: number } {
  const args = [join(here, 'open-loop.ts'), url, bodyFile, String(rate), String(seconds), key];
  if (firstByte) args.push('--ttfb');
  const output = execFileSync('taskset', ['-c', '1', process.execPath, ...args], { encoding: 'utf8' });
  const result = JSON.parse(output.trim().split('\n').pop()!) as { p50: number; p99: number; failures: number };
  if (result.failures > 0) throw new Error(`${result.failures} requests failed against ${url}`);
  return result;
}

export function runStreamLoad(url: string, key: string, bodyFile: string, seconds: number, concurrency: number): { streams: number; events: number } {
  const output = execFileSync('taskset', ['-c', '1', process.execPath, join(here, 'stream-load.ts'), url, bodyFile, key, String(seconds), String(concurrency)], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop()!) as { streams: number; events: number };
}

export interface StreamsScaleResult {
  streams: number;
  held: number;
  complete: number;
  problems: Record<string, number>;
  rssBeforeMb: number;
  rssOpenMb: number;
  kbPerStream: number;
  /** The gateway's open file descriptors with every stream open. */
  gatewayFdsOpen?: number;
}

export function runStreamsScale(gatewayUrl: string, upstreamUrl: string, gatewayPid: number, streams: number, key: string, upstreamH2c = false): StreamsScaleResult {
  const command = `ulimit -n ${BENCH_FILE_LIMIT} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec taskset -c 1 "$0" "$@"`;
  const output = execFileSync('sh', ['-c', command, process.execPath, join(here, 'streams-scale.ts'), gatewayUrl, upstreamUrl, String(gatewayPid), String(streams), key, ...(upstreamH2c ? ['h2c'] : [])], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop()!) as StreamsScaleResult;
}

/**
 * Concurrent streams this machine's open-file limit allows through one gateway, 200 descriptors kept for
 * everything else: two sockets each over HTTP/1.1 upstream, one each (plus one per
 * `streamsPerUpstreamConnection`, the HTTP/2 connections they share) when the channel speaks HTTP/2.
 */
export function streamsWithinFileLimit(wanted: number, streamsPerUpstreamConnection = 1): number {
  let hard = BENCH_FILE_LIMIT;
  try {
    const limit = execFileSync('sh', ['-c', `ulimit -n ${BENCH_FILE_LIMIT} 2>/dev/null; ulimit -n`], { encoding: 'utf8' }).trim();
    hard = limit === 'unlimited' ? BENCH_FILE_LIMIT : Number(limit);
  } catch {
    // keep the wanted figure; the phase will report what failed
  }
  // n client sockets + ceil(n / perConnection) upstream sockets ≤ hard − 200.
  return Math.min(wanted, Math.floor(((hard - 200) * streamsPerUpstreamConnection) / (streamsPerUpstreamConnection + 1)));
}
