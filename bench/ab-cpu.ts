// CPU per request of several gateway trees back to back, for an A/B of a change: `node bench/ab-cpu.ts
// REV_OR_DIR [REV_OR_DIR…]`. A git revision is unpacked into a temporary tree (bench/bench-trees.ts), a
// directory is used as it is. One upstream simulator serves every tree;
// each round starts each tree's bench/serve-gateway.ts on core 0 (the flags of that tree's `npm start`), warms it up,
// then runs wrk (1 thread, 32 connections, the bench's chat body) on core 1 and reads the gateway's CPU time
// from /proc. Rounds alternate the trees, so slow drifts of a shared machine hit all of them alike; only
// differences within a round mean much. Env: AB_ROUNDS (default 3), AB_SECONDS (default 6).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { treeFor } from './bench-trees.ts';
import { BENCH_CHAT_BODY, BENCH_KEY } from './bench-constants.ts';
import { startServer, stopServers } from './bench-servers.ts';
import { ensureWrk, runWrk } from './load-tools.ts';
import { gatewayNodeFlags, SIMULATOR_NODE_FLAGS } from './node-flags.ts';
import { cpuMs } from './proc-stats.ts';
import { median } from './bench-summary.ts';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const SECONDS = Number(process.env.AB_SECONDS ?? 6);
const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'ab-cpu-'));
const chatBody = BENCH_CHAT_BODY;

const targets = process.argv.slice(2);
if (targets.length === 0) throw new Error('usage: node bench/ab-cpu.ts REV_OR_DIR [REV_OR_DIR…]');
ensureWrk();
const trees = targets.map(treeFor);
const upstream = await startServer([join(root, 'bench/serve-upstream.ts')], SIMULATOR_NODE_FLAGS);
writeFileSync(join(work, 'chat.json'), chatBody);
const results = new Map<string, { us: number[]; rps: number[] }>(targets.map((target) => [target, { us: [], rps: [] }]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, tree] of trees.entries()) {
      const gateway = await startServer([join(tree, 'bench/serve-gateway.ts'), upstream.url], gatewayNodeFlags(tree), { ...process.env, MAX_CONNECTIONS_PER_IP: '0' });
      try {
        const url = `${gateway.url}/v1/chat/completions`;
        runWrk(url, BENCH_KEY, chatBody, 2, work);
        const before = cpuMs(gateway.pid);
        const run = runWrk(url, BENCH_KEY, chatBody, SECONDS, work);
        const us = ((cpuMs(gateway.pid) - before) * 1000) / run.requests;
        const result = results.get(targets[index]!)!;
        result.us.push(us);
        result.rps.push(run.rps);
        process.stdout.write(`round ${round + 1} ${targets[index]}: ${us.toFixed(1)} µs/req, ${Math.round(run.rps)} req/s\n`);
      } finally {
        stopServers([gateway]);
        await new Promise((done) => setTimeout(done, 300));
      }
    }
  }
  for (const [target, result] of results) {
    process.stdout.write(`AB ${target}: median ${median(result.us).toFixed(1)} µs/req (${result.us.map((value) => value.toFixed(1)).join(' / ')}), ${Math.round(median(result.rps))} req/s\n`);
  }
} finally {
  stopServers([upstream]);
}
