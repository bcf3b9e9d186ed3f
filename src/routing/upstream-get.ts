// One small GET to a channel's upstream with its own authentication, for the admin's look-ups (balance,
// model list): bounded in time and in size, the answer parsed as JSON or reported as the upstream's error.
import type { UpstreamAgents } from '../upstream/upstream-agent.ts';
import type { RoutedChannel } from './routed-channel.ts';
import { sendUpstream } from '../upstream/send-upstream.ts';
import { redactSecrets } from '../relay/redact-credentials.ts';

const LOOKUP_TIMEOUT_MS = 15_000;
/** A model list of a few thousand entries fits; anything larger is not what was asked for. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

type UpstreamGetResult = { ok: true; status: number; json: unknown } | { ok: false; status: number | null; error: string };

export async function upstreamGetJson(agents: UpstreamAgents, channel: RoutedChannel, path: string): Promise<UpstreamGetResult> {
  try {
    const response = await sendUpstream(agents, {
      channel,
      path,
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      headersTimeoutMs: LOOKUP_TIMEOUT_MS,
      idleTimeoutMs: LOOKUP_TIMEOUT_MS,
    });
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of response.chunks()) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) return { ok: false, status: response.statusCode, error: `the upstream's answer is larger than ${MAX_ANSWER_BYTES} bytes` };
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (response.statusCode < 200 || response.statusCode >= 300) return { ok: false, status: response.statusCode, error: redactSecrets(text.slice(0, 500), channel.apiKeys) };
    try {
      return { ok: true, status: response.statusCode, json: JSON.parse(text) as unknown };
    } catch {
      return { ok: false, status: response.statusCode, error: 'the upstream answered something other than JSON' };
    }
  } catch (error) {
    return { ok: false, status: null, error: redactSecrets((error as Error).message, channel.apiKeys) };
  }
}
