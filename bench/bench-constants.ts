// Shared by the benchmark's processes.
export const BENCH_KEY = 'sk-benchbenchbenchbenchbenchbenchbenchbenchbenchbenc';
export const BENCH_UPSTREAM_KEY = 'sk-bench-upstream';
/** Numbered events per held stream (bench/serve-held-stream-upstream.ts): ` e0` at once, the rest on release. */
export const HELD_STREAM_EVENTS = 5;
/** The ~500-byte chat request of the throughput and latency phases. */
export const BENCH_CHAT_BODY = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant that answers briefly and precisely.' },
    { role: 'user', content: 'Summarise the benefits of connection pooling for an HTTP gateway in two sentences, please. '.repeat(3) },
  ],
  temperature: 0.2,
  max_tokens: 64,
});
