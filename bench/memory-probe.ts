// Preloaded (`--import`) into a gateway to see where its idle memory goes: counts the modules each thread
// loads (a module.registerHooks load hook) and, MEMORY_PROBE_MS after start, writes one JSON line to
// standard error with the thread's heap spaces, process.memoryUsage and the module counts, and again on
// SIGUSR2 (main thread).
// Used by bench/memory.ts --breakdown; never loaded by `npm start`.
import { registerHooks } from 'node:module';
import { isMainThread, threadId } from 'node:worker_threads';
import { getHeapSpaceStatistics, getHeapStatistics, getHeapCodeStatistics } from 'node:v8';

const urls: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    urls.push(url);
    return nextLoad(url, context);
  },
});

const packageOf = (url: string): string => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return match ? match[1]! : url.startsWith('node:') ? 'node:' : url.includes('/src/') ? 'src' : 'other';
};

const report = () => {
  const byPackage: Record<string, number> = {};
  for (const url of urls) byPackage[packageOf(url)] = (byPackage[packageOf(url)] ?? 0) + 1;
  const mb = (bytes: number) => Math.round(bytes / 1048576 * 10) / 10;
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, { size: mb(space.space_size), used: mb(space.space_used_size) }]));
  const heap = getHeapStatistics();
  const code = getHeapCodeStatistics();
  const usage = process.memoryUsage();
  process.stderr.write(`MEMORY-PROBE ${JSON.stringify({
    thread: isMainThread ? 'main' : `worker ${threadId}`,
    modules: urls.length,
    byPackage: Object.fromEntries(Object.entries(byPackage).sort((a, b) => b[1] - a[1]).slice(0, 25)),
    rss: mb(usage.rss), heapTotal: mb(heap.total_heap_size), heapUsed: mb(heap.used_heap_size), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers),
    malloced: mb(heap.malloced_memory), peakMalloced: mb(heap.peak_malloced_memory),
    bytecodeAndMetadata: mb(code.bytecode_and_metadata_size), codeAndMetadata: mb(code.code_and_metadata_size), externalScriptSource: mb(code.external_script_source_size),
    spaces,
  })}\n`);
};
setTimeout(report, Number(process.env.MEMORY_PROBE_MS ?? 3000)).unref();
// Again whenever asked (main thread only: signals reach the process's main thread).
if (isMainThread) process.on('SIGUSR2', report);
