// Tests many channels at once (the admin's "Test all"): each with the same one-request test as the single
// Test (channel-tester.ts) on its first model, at most `concurrency` at a time, results in the input order.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import type { RoutedChannel } from './routed-channel.ts';
import { testChannel, type ChannelTestResult } from './channel-tester.ts';

const TEST_ALL_CONCURRENCY = 4;

interface ChannelTestRun extends ChannelTestResult {
  channel: RoutedChannel;
  model: string;
}

/** `stop`: no further channel is tested once it aborts, and those under test are cut short; only the channels tested are answered. */
export async function testChannels(agents: UpstreamAgents, channels: readonly RoutedChannel[], concurrency = TEST_ALL_CONCURRENCY, test = testChannel, stop?: AbortSignal): Promise<ChannelTestRun[]> {
  const results: (ChannelTestRun | undefined)[] = new Array(channels.length);
  let next = 0;
  const worker = async () => {
    while (next < channels.length && !stop?.aborted) {
      const index = next++;
      const channel = channels[index]!;
      const model = [...channel.models][0];
      results[index] = model === undefined
        ? { channel, model: '', ok: false, status: null, latencyMs: 0, error: 'the channel serves no model to test' }
        : { channel, model, ...await test(agents, channel, model, stop) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, channels.length) }, worker));
  return results.filter((run) => run !== undefined);
}
