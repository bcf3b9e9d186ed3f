// CPU of the relay's per-event stream work alone, in one process: a recorded upstream stream (from the
// bench's own simulators, the same ~120-event answer as bench/run.ts's stream phase) pumped through the
// same-format passthrough converter and through the translated one (Anthropic channel → OpenAI client),
// many times over, timed with process.cpuUsage. No sockets, so other work on the machine moves it far less
// than the gateway-level figure; it is an A/B for the converters, SSE parsing and pump, not the whole cost.
// Usage: node bench/stream-convert-cpu.ts [STREAMS per round, default 3000] [ROUNDS, default 5]
import pino from 'pino';
import { startOpenAISimulator } from '../test/simulators/openai-simulator.ts';
import { startAnthropicSimulator } from '../test/simulators/anthropic-simulator.ts';
import { passthroughChatHop } from '../src/relay/hops/passthrough-chat-hop.ts';
import { AttemptUsage } from '../src/relay/attempt-usage.ts';
import { translatedChatHop } from '../src/relay/hops/translated-chat-hop.ts';
import { createSsePump } from '../src/relay/sse-pump.ts';
import { relayFormat } from '../src/formats/index.ts';
import type { FormatConverters } from '../src/hub/hub-format.ts';
import type { RelayCall } from '../src/relay/relay-types.ts';
import type { RoutedChannel } from '../src/routing/routing-table.ts';
import type { StreamConverter } from '../src/relay/relay-hop.ts';

const STREAMS = Number(process.argv[2] ?? 3000);
const ROUNDS = Number(process.argv[3] ?? 5);
const words = 'the quick brown fox jumps over the lazy dog again and again '.repeat(10).trim();
const body = (model: string) => ({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: words }] });

async function recorded(url: string, path: string, headers: Record<string, string>, model: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ ...body(model), ...extra }) });
  return Buffer.from(await response.arrayBuffer());
}
const openai = await startOpenAISimulator({ apiKey: 'k', recordRequests: false });
const anthropic = await startAnthropicSimulator({ apiKey: 'k', recordRequests: false });
const sameBytes = await recorded(openai.url, '/v1/chat/completions', { authorization: 'Bearer k' }, 'gpt-4o-mini');
const translatedBytes = await recorded(anthropic.url, '/v1/messages', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }, 'claude-bench', { stream_options: undefined, max_tokens: 4096 });
await openai.close();
await anthropic.close();

const logger = pino({ level: 'silent' });
const client = relayFormat('openai-chat')! as FormatConverters;
const call = (model: string): RelayCall => ({
  requestId: 'req', key: {} as never, endpoint: '/v1/chat/completions', inboundFormat: 'openai-chat', model, stream: true,
  body: body(model), rawBody: Buffer.from(JSON.stringify(body(model))), signal: new AbortController().signal, startedAt: 0, forwardHeaders: {},
  meter: { reservation: null, pricing: undefined, attempts: [], upstreamWaitMs: 0 },
});
const channel = (chatFormat: string) => ({ name: 'c', chatFormat: relayFormat(chatFormat) } as unknown as RoutedChannel);
const sameCall = call('gpt-4o-mini');
const translatedCall = call('claude-bench');
const sent = { path: '', headers: {}, body: '' };
const sameConverter = (): StreamConverter => passthroughChatHop({ call: sameCall, format: client, logger }).stream!(channel('openai-chat'), sent, new AttemptUsage(sameCall, undefined));
const translatedConverter = (): StreamConverter => translatedChatHop({ call: translatedCall, client, request: () => client.requestToHub(translatedCall.body as never) as never, logger, imageFetchAllowPrivate: false }).stream!(channel('anthropic-messages'), sent, new AttemptUsage(translatedCall, null));

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}
async function run(bytes: Buffer, converter: () => StreamConverter): Promise<{ events: number; out: number }> {
  const c = converter();
  const pump = createSsePump(once(bytes), c, () => {});
  let out = 0;
  for (;;) {
    const step = await pump.next();
    out += step.text.length;
    if (step.done) break;
  }
  out += c.end().length;
  c.usage();
  return { events: 0, out };
}
const eventsIn = (bytes: Buffer) => bytes.toString().split('\n\n').length - 1;
async function measure(bytes: Buffer, converter: () => StreamConverter): Promise<number> {
  const before = process.cpuUsage();
  for (let index = 0; index < STREAMS; index++) await run(bytes, converter);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (STREAMS * eventsIn(bytes));
}
await measure(sameBytes, sameConverter);
await measure(translatedBytes, translatedConverter);
for (let round = 1; round <= ROUNDS; round++) {
  const same = await measure(sameBytes, sameConverter);
  const translated = await measure(translatedBytes, translatedConverter);
  process.stdout.write(`round ${round}: µs per upstream event same ${same.toFixed(3)}, translated ${translated.toFixed(3)} (${eventsIn(sameBytes)} / ${eventsIn(translatedBytes)} events per stream)\n`);
}
