// Preloaded (--import) by test/e2e/install-warms-compile-cache.test.ts into a gateway started as `npm start`
// does (and, --import being inherited, into its metering worker): appends to STRIPPER_PROBE_FILE a line per
// thread that has loaded Node's TypeScript stripper, checked when the thread starts and every 100 ms after.
// Plain JavaScript: a preload in TypeScript would itself make the thread load the stripper.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.STRIPPER_PROBE_FILE;
const thread = isMainThread ? 'main' : 'worker';
if (file) {
  if (!isMainThread) appendFileSync(file, 'worker-started\n');
  const loaded = () => process.moduleLoadList.some((name) => name.includes('amaro'));
  const timer = setInterval(() => {
    if (!loaded()) return;
    appendFileSync(file, `${thread} loaded the stripper\n`);
    clearInterval(timer);
  }, 100);
  timer.unref();
}
