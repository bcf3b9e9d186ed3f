// CPU per request of each thread kind of a gateway under wrk: the main thread, the metering worker
// (WorkerThread) and the rest (V8's helpers, libuv's pool), for an A/B of trees: `node bench/ab-thread-cpu.ts
// DIR [DIR…]` (env ROUNDS, default 3); the target `bare` measures bench/serve-bare-relay.ts, the floor the
// gateway is compared with. Like ab-cpu.ts: one upstream simulator, each tree's bench/serve-gateway.ts on
// core 0, 3 s of wrk warm-up then 8 s measured (1 thread, 32 connections, on core 1); the worker gets 1.5 s
// more to write the last batches. Rounds alternate the trees. Thread times from /proc/PID/task/*/stat.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_CHAT_BODY, BENCH_KEY, BENCH_UPSTREAM_KEY } from './bench-constants.ts';
import { startServer, stopServers } from './bench-servers.ts';
import { runWrk } from './load-tools.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'thread-cpu-'));
writeFileSync(join(work, 'chat.json'), BENCH_CHAT_BODY);
const threads = (pid: number) => new Map(readdirSync(`/proc/${pid}/task`).map((tid) => {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, in ticks of 10 ms (USER_HZ 100, as proc-stats.ts)
  return [`${tid}:${name}`, (Number(fields[11]) + Number(fields[12])) * 10];
}));
const upstream = await startServer([join(root, 'bench/serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
  for (const tree of process.argv.slice(2)) {
    const bare = tree === 'bare';
    const gateway = bare
      ? await startServer([join(root, 'bench/serve-bare-relay.ts'), upstream.url], SIMULATOR_NODE_FLAGS)
      : await startServer([join(tree, 'bench/serve-gateway.ts'), upstream.url], gatewayNodeFlags(tree), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' });
    const url = `${gateway.url}/v1/chat/completions`;
    const key = bare ? BENCH_UPSTREAM_KEY : BENCH_KEY;
    runWrk(url, key, BENCH_CHAT_BODY, 3, work);
    const before = threads(gateway.pid);
    const run = runWrk(url, key, BENCH_CHAT_BODY, 8, work);
    await new Promise((done) => setTimeout(done, 1500)); // the worker writes the last batches
    const after = threads(gateway.pid);
    const per = (ms: number) => ((ms * 1000) / run.requests).toFixed(1);
    let main = 0;
    let worker = 0;
    let other = 0;
    for (const [id, ms] of after) {
      const used = ms - (before.get(id) ?? 0);
      if (id.endsWith(':MainThread')) main += used; else if (id.endsWith(':WorkerThread')) worker += used; else other += used;
    }
    process.stdout.write(`round ${round} ${tree}: main ${per(main)} worker ${per(worker)} other ${per(other)} µs/req, ${run.rps.toFixed(0)} req/s\n`);
    stopServers([gateway]);
  }
}
stopServers([upstream]);
rmSync(work, { recursive: true, force: true });
