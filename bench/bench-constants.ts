// Shared by the benchmark's processes.
export const BENCH_KEY = 'sk-benchbenchbenchbenchbenchbenchbenchbenchbenchbenc';
export const BENCH_UPSTREAM_KEY = 'sk-bench-upstream';
/** Numbered events per held stream (bench/serve-held-stream-upstream.ts): ` e0` at once, the rest on release. */
export const HELD_STREAM_EVENTS = 5;
