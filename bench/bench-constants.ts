// Shared by the benchmark's processes.
export const BENCH_KEY = 'sk-benchbenchbenchbenchbenchbenchbenchbenchbenchbenc';
export const BENCH_UPSTREAM_KEY = 'sk-bench-upstream';
