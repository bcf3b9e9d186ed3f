// The benchmark's upstream: the OpenAI simulator, without request recording. Prints its URL when ready.
import { startOpenAISimulator } from '../test/simulators/openai-simulator.ts';
import { BENCH_UPSTREAM_KEY } from './bench-constants.ts';

const simulator = await startOpenAISimulator({ apiKey: BENCH_UPSTREAM_KEY, recordRequests: false });
process.stdout.write(`READY ${simulator.url}\n`);
process.once('SIGTERM', () => void simulator.close().then(() => process.exit(0)));
