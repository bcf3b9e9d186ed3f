// Preloaded first by `npm start` (--import): on Linux with glibc, starts the process again in place (same
// PID, arguments and environment, through execve) with glibc's malloc told to give every block of 32 KB or
// more its own mapping (GLIBC_TUNABLES glibc.malloc.mmap_threshold=32768), so such a block goes back to the
// system when it is freed instead of staying in an arena.
//
// Why (issue 16, peak memory): V8's compilers and parser allocate their working memory (zones) in
// segments of up to 32 KB from malloc, tens of MB for a burst of optimisations, on their own threads, and
// free it when the job ends. glibc keeps those freed pages resident in each thread's arena (only
// malloc_trim, which Node does not expose, gives them back): measured after 8 s of load, malloc held
// 69 MB from the system with 22 MB in use. With the threshold at 32 KB the gateway's peak RSS through one
// round of the benchmark is ~160 MB instead of ~180-190 (docs/performance.md, "Peak and idle memory
// (fifth session, peakmem)"). 64 KB or more gives back much less: the zone segments stay under it.
// glibc reads its tunables only when a process starts, hence the re-execution: ~0.1 s of start-up.
//
// Left alone: other systems and C libraries (musl ignores the tunable), a GLIBC_TUNABLES that already sets
// the threshold (the operator's choice, and what stops a second re-execution), worker threads, and a
// process with an IPC channel to its parent (child_process.fork), which execve would not carry over (Node
// has already taken NODE_CHANNEL_FD out of the environment here: `process.channel` tells).
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const TUNABLE = 'glibc.malloc.mmap_threshold';
const THRESHOLD_BYTES = 32 * 1024;

function linkedWithGlibc() {
  try {
    return /\/libc\.so\.6$/m.test(readFileSync('/proc/self/maps', 'utf8'));
  } catch {
    return false;
  }
}

const tunables = process.env.GLIBC_TUNABLES ?? '';
if (process.platform === 'linux' && isMainThread && typeof process.execve === 'function'
  && process.channel === undefined && !tunables.includes(TUNABLE) && linkedWithGlibc()) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    GLIBC_TUNABLES: [tunables, `${TUNABLE}=${THRESHOLD_BYTES}`].filter(Boolean).join(':'),
  });
}
