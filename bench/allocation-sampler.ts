// Preloaded into a benchmarked server (`--import bench/allocation-sampler.ts`, by bench/allocation-sites.ts):
// the first SIGUSR2 starts V8's sampling heap profiler on the main thread, counting objects the garbage
// collector has already freed too (what a request allocates, not what it keeps; with ALLOCATION_SURVIVORS=1
// only what outlived the young generation's collections, i.e. what was promoted); the second writes the
// profile to ALLOCATION_PROFILE (a file path) and prints `PROFILED` on standard error.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

const out = process.env.ALLOCATION_PROFILE;
if (!out) throw new Error('allocation-sampler.ts needs ALLOCATION_PROFILE');
const session = new Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  void (async () => {
    if (!sampling) {
      sampling = true;
      await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.ALLOCATION_SURVIVORS !== '1' });
      process.stderr.write('SAMPLING\n');
      return;
    }
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(out, JSON.stringify(profile));
    process.stderr.write('PROFILED\n');
  })();
});
