// The streaming benchmark's Anthropic upstream: the Anthropic simulator, without request recording.
import { startAnthropicSimulator } from '../test/simulators/anthropic-simulator.ts';
import { BENCH_UPSTREAM_KEY } from './bench-constants.ts';

const simulator = await startAnthropicSimulator({ apiKey: BENCH_UPSTREAM_KEY, recordRequests: false });
process.stdout.write(`READY ${simulator.url}\n`);
process.once('SIGTERM', () => void simulator.close().then(() => process.exit(0)));
