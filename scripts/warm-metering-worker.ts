// Started by scripts/warm-compile-cache.js: runs the SQLite metering worker once, as the gateway starts it,
// so that Node's compile cache holds its modules, and asks it to close as soon as it answers.
// Usage: node --import=./scripts/compile-cache.js scripts/warm-metering-worker.ts sqlite:FILE
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from '../src/metering/metering-worker-protocol.ts';

const databaseUrl = process.argv[2];
if (!databaseUrl?.startsWith('sqlite:')) throw new Error('usage: warm-metering-worker.ts sqlite:FILE');
const worker = new Worker(new URL('../src/metering/sqlite-metering-worker.ts', import.meta.url), { workerData: { databaseUrl } });
worker.once('message', (_reply: WorkerReply) => void worker.terminate());
worker.once('error', () => process.exit(0));
worker.postMessage({ kind: 'close', id: 1 } satisfies WorkerRequest);
