// Sends one tiny chat request to one channel and model, in the channel's own wire format, and reports
// whether it answered and how fast. Used by the admin "test channel" endpoint and the re-test schedule.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import { channelForModel, type RoutedChannel } from './routing-table.ts';
import { sendUpstream } from '../upstream/send-upstream.ts';
import { operationPath } from '../providers/operation-path.ts';
import { redactSecrets } from '../relay/redact-credentials.ts';

interface ChannelTestResult {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const TEST_TIMEOUT_MS = 20_000;

export async function testChannel(agents: UpstreamAgents, anyModelChannel: RoutedChannel, model: string): Promise<ChannelTestResult> {
  // In the model's own format when the channel's depends on it (Vertex: Gemini or Claude).
  const channel = channelForModel(anyModelChannel, model);
  const upstreamModel = channel.modelMapping[model] ?? model;
  // The smallest valid chat request in the format the channel serves chat in, as that format declares it.
  const format = channel.chatFormat;
  const started = performance.now();
  const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
  try {
    const response = await sendUpstream(agents, {
      channel,
      path: operationPath(channel, format.chatOperations.whole, upstreamModel),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(format.probeBody(upstreamModel)),
      signal,
      headersTimeoutMs: TEST_TIMEOUT_MS,
      idleTimeoutMs: TEST_TIMEOUT_MS,
    });
    const text = await response.text();
    const latencyMs = Math.round(performance.now() - started);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    // A refused token is not kept for the next test (a cloud token revoked before its expiry).
    if (response.statusCode === 401 || response.statusCode === 403) for (const key of channel.apiKeys) channel.provider.forgetCredential?.(key);
    return { ok, status: response.statusCode, latencyMs, error: ok ? null : redactSecrets(text.slice(0, 500), channel.apiKeys) };
  } catch (error) {
    return { ok: false, status: null, latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  }
}
