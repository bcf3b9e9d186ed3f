// Sends one tiny chat request to one channel and model, in the channel's own wire format, and reports
// whether it answered and how fast. Used by the admin "test channel" endpoint and the re-test schedule.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import { channelForModel, type RoutedChannel } from './routing-table.ts';
import { sendUpstream } from '../upstream/send-upstream.ts';
import { operationPath } from '../providers/operation-path.ts';
import { redactSecrets } from '../relay/redact-credentials.ts';

export interface ChannelTestResult {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const TEST_TIMEOUT_MS = 20_000;

/** The test reads no more of an answer than this: it needs the status and the start of an error, not a hostile upstream's endless body. */
const TEST_ANSWER_LIMIT = 1024 * 1024;

/** `stop`: aborts the test early (the administrator who asked went away). */
export async function testChannel(agents: UpstreamAgents, anyModelChannel: RoutedChannel, model: string, stop?: AbortSignal): Promise<ChannelTestResult> {
  // In the model's own format when the channel's depends on it (Vertex: Gemini or Claude).
  const channel = channelForModel(anyModelChannel, model);
  const upstreamModel = channel.modelMapping[model] ?? model;
  // The smallest valid chat request in the format the channel serves chat in, as that format declares it.
  const format = channel.chatFormat;
  const started = performance.now();
  const signal = stop ? AbortSignal.any([stop, AbortSignal.timeout(TEST_TIMEOUT_MS)]) : AbortSignal.timeout(TEST_TIMEOUT_MS);
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
    const { text, tooLarge } = await readLimited(response.chunks(), TEST_ANSWER_LIMIT);
    const latencyMs = Math.round(performance.now() - started);
    if (tooLarge) return { ok: false, status: response.statusCode, latencyMs, error: `the upstream's answer is larger than ${TEST_ANSWER_LIMIT} bytes` };
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    // A refused token is not kept for the next test (a cloud token revoked before its expiry).
    if (response.statusCode === 401 || response.statusCode === 403) for (const key of channel.apiKeys) channel.provider.forgetCredential?.(key);
    return { ok, status: response.statusCode, latencyMs, error: ok ? null : redactSecrets(text.slice(0, 500), channel.apiKeys) };
  } catch (error) {
    return { ok: false, status: null, latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  }
}

/** The answer's text up to `limit` bytes; leaving the iteration early aborts the upstream request. */
async function readLimited(chunks: AsyncIterable<Buffer>, limit: number): Promise<{ text: string; tooLarge: boolean }> {
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > limit) return { text: '', tooLarge: true };
    kept.push(chunk);
  }
  return { text: Buffer.concat(kept).toString('utf8'), tooLarge: false };
}
