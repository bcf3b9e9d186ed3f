// npm start's semi-space flags are process-wide and would give the metering worker the gateway's young
// generation; withOwnYoungGeneration lets the worker's resourceLimits rule, and leaves the gateway's alone.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('gives a worker the young generation of its resourceLimits under npm start semi-space flags, and leaves the gateway its own', () => {
  const module = join(import.meta.dirname, '../../src/metering/worker-young-generation.ts');
  // New space committed (MB) of a plain worker, of a wrapped one, and of the main thread before and after.
  const script = `
    import { Worker } from 'node:worker_threads';
    import { getHeapSpaceStatistics } from 'node:v8';
    import { withOwnYoungGeneration } from ${JSON.stringify(module)};
    const newSpaceMb = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
    // The eval worker inherits --input-type=module: it is an ES module too.
    const create = () => new Worker(\`
      import { parentPort } from 'node:worker_threads';
      import { getHeapSpaceStatistics } from 'node:v8';
      parentPort.postMessage(getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576);
    \`, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    const measure = async (worker) => {
      const mb = await new Promise((resolve) => worker.once('message', resolve));
      await worker.terminate();
      return mb;
    };
    const mainBefore = newSpaceMb();
    const plain = await measure(create());
    const wrapped = await measure(withOwnYoungGeneration(create));
    process.stdout.write(JSON.stringify({ plain, wrapped, mainBefore, mainAfter: newSpaceMb() }));
  `;
  const output: string = execFileSync(process.execPath, ['--max-semi-space-size=8', '--min-semi-space-size=8', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const sizes = JSON.parse(output) as { plain: number; wrapped: number; mainBefore: number; mainAfter: number };
  expect(sizes.wrapped).toBeLessThan(sizes.plain);
  expect(sizes.wrapped).toBeLessThanOrEqual(4);
  expect(sizes.mainAfter).toBe(sizes.mainBefore);
});
