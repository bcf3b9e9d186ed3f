// Request-thread CPU of handing a metering batch to a worker: entry objects (as before) against the flat
// array of src/metering/metering-batch-encoding.ts and a JSON string, plus the worker side's decoding.
// `node bench/metering-batch-post.ts [batch size]`; figures in docs/performance.md (issue 16).
import { Worker } from 'node:worker_threads';
import { decodeMeteringBatch, encodeMeteringBatch } from '../src/metering/metering-batch-encoding.ts';
import type { MeteringEntry } from '../src/metering/metering-writer.ts';

const size = Number(process.argv[2] ?? 100);
const posts = 2_000;

/** A typical finished call, as usage-recorder.ts queues it. */
const entry = (index: number): MeteringEntry => ({
  chargeMicros: 1_234,
  log: {
    created_at: Date.now(), request_id: `req_0123456789abcdef0123456789ab${String(index).padStart(4, '0')}`, user_id: 1, key_id: 2,
    key_name: 'bench key', model: 'gpt-4o-mini', upstream_model: 'gpt-4o-mini', channel_id: 1, inbound_format: 'openai-chat',
    endpoint: '/v1/chat/completions', stream: 0, status: 200, latency_ms: 3, ttft_ms: null, input_tokens: 12, cached_tokens: 0,
    output_tokens: 9, reasoning_tokens: 0, cost_micros: 1_234, error: null, cache_write_tokens: 0, image_count: 0, image_size: null,
    image_quality: null, audio_ms: 0, characters: 0, searches: 0, requests: 1, ratio_ppm: 1_000_000, tokens_counted: 0,
    error_code: null, attempts_json: '[{"channel":1,"status":200,"latencyMs":3}]',
  },
});
const batch = Array.from({ length: size }, (_, index) => entry(index));
// A worker that receives and drops: its deserialising runs on its own thread, not in the figures.
const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });

/** This thread's CPU per entry, in ns. */
function measure(label: string, work: () => void): void {
  for (let i = 0; i < 200; i++) work();
  const start = process.threadCpuUsage();
  for (let i = 0; i < posts; i++) work();
  const used = process.threadCpuUsage(start);
  process.stdout.write(`${label.padEnd(44)} ${(((used.user + used.system) * 1_000) / posts / size).toFixed(0)} ns per entry\n`);
}

const flat = encodeMeteringBatch(batch);
const json = JSON.stringify(batch);
for (let round = 1; round <= 3; round++) {
  process.stdout.write(`round ${round}, batches of ${size}\n`);
  measure('post entry objects (before)', () => worker.postMessage({ kind: 'write', id: 1, entries: batch, retry: false }));
  measure('encode flat + post (now)', () => worker.postMessage({ kind: 'write', id: 1, entries: encodeMeteringBatch(batch), retry: false }));
  measure('JSON.stringify + post the string', () => worker.postMessage({ kind: 'write', id: 1, entries: JSON.stringify(batch), retry: false }));
  measure('worker side: decode the flat array', () => void decodeMeteringBatch(flat));
  measure('worker side: JSON.parse', () => void JSON.parse(json));
}
await worker.terminate();
