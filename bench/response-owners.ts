// What recording and checking Responses API ids costs per call (CPU on the request path), in-process:
//   node bench/response-owners.ts
// Process CPU time (process.cpuUsage: every thread, GC included), not wall time, so other load on the
// machine does not count.
// remember(): a Map insert, a queued row (the batch insert runs behind, on the timer); lookup(): a Map hit.
import { pino } from 'pino';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createResponseOwners } from '../src/responses/response-owners.ts';
import { responseIdOf } from '../src/responses/passthrough-answers.ts';

const N = 200_000;
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const database = await openDatabase('sqlite::memory:');
await migrateToLatest(database.db);
const owners = createResponseOwners({ db: database.db, logger: pino({ level: 'silent' }), flushIntervalMs: 250 });
const body = JSON.stringify({ id: 'resp_0123456789abcdef0123456789abcdef', object: 'response', created_at: 1, status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'x'.repeat(2000) }] }], usage: { input_tokens: 10, output_tokens: 400 } });

let started = cpuMs();
for (let i = 0; i < N; i++) responseIdOf(body);
const parseUs = ((cpuMs() - started) * 1000) / N;

// Requests arrive over time: 500 ids, then the batch is written behind them, then the next 500. The
// remember() loop is synchronous (the request-path cost); the batch insert is timed apart (per row).
let rememberMs = 0;
let writeMs = 0;
for (let batch = 0; batch < N; batch += 500) {
  started = cpuMs();
  for (let i = batch; i < batch + 500; i++) owners.remember({ id: `resp_${i}`, userId: 1, keyId: 1, channelId: 1, model: 'gpt-4o-mini' });
  rememberMs += cpuMs() - started;
  started = cpuMs();
  await owners.flush();
  writeMs += cpuMs() - started;
}
const rememberUs = (rememberMs * 1000) / N;
const writeUs = (writeMs * 1000) / N;

started = cpuMs();
for (let i = 0; i < N; i++) await owners.lookup(`resp_${N - 1 - (i % 50_000)}`);
const lookupUs = ((cpuMs() - started) * 1000) / N;
await owners.close();
await database.close();
process.stdout.write(`per call: responseIdOf ${parseUs.toFixed(3)} µs | remember ${rememberUs.toFixed(3)} µs | batch insert behind, per row ${writeUs.toFixed(3)} µs | lookup (memory hit) ${lookupUs.toFixed(3)} µs\n`);
