// The filter that holds back the repeated part of a restarted answer, per client format: what the client
// would receive after the part it already has.
import { describe, expect, it } from 'vitest';
import { createReplayFilter } from '../../src/relay/attempts-replay.ts';
import { getFormat } from '../../src/formats/index.ts';

const openai = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c2', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const gemini = (text: string, finishReason?: string) => `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(finishReason ? { finishReason } : {}) }] })}\n\n`;
const anthropic = (type: string, body: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
const textOf = (sse: string, read: (data: Record<string, unknown>) => string) => sse.split('\n').filter((line) => line.startsWith('data: {')).map((line) => read(JSON.parse(line.slice(6)))).join('');

describe('replay filter', () => {
  it('OpenAI chat: drops the opening and the repeated text, splits the chunk that crosses the boundary', () => {
    const filter = createReplayFilter(getFormat('openai-chat'), 'Hello wor')!;
    let out = filter.pass(openai({ role: 'assistant', content: '' }) + openai({ content: 'Hello' }));
    out += filter.pass(openai({ content: ' world' }) + openai({ content: '!' }));
    out += filter.pass(openai({}, 'stop') + 'data: [DONE]\n\n');
    expect(filter.caughtUp).toBe(true);
    expect(textOf(out, (d) => ((d.choices as { delta: { content?: string } }[])[0]?.delta.content ?? ''))).toBe('ld!');
    expect(out).not.toContain('"role"');
    expect(out).toContain('"finish_reason":"stop"');
    expect(out.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('OpenAI chat: other text, or an end before catching up, diverges and sends nothing', () => {
    const other = createReplayFilter(getFormat('openai-chat'), 'Hello world')!;
    expect(other.pass(openai({ content: 'Hi there' }))).toBe('');
    expect(other.diverged).toBe(true);
    expect(other.pass(openai({ content: 'more' }))).toBe('');
    const shorter = createReplayFilter(getFormat('openai-chat'), 'Hello world')!;
    expect(shorter.pass(openai({ content: 'Hello' }) + openai({}, 'stop'))).toBe('');
    expect(shorter.diverged).toBe(true);
    const tool = createReplayFilter(getFormat('openai-chat'), 'Hello')!;
    tool.pass(openai({ tool_calls: [{ index: 0, function: { arguments: '{' } }] }));
    expect(tool.diverged).toBe(true);
  });

  it('Gemini: trims the text parts and keeps the finish once caught up', () => {
    const filter = createReplayFilter(getFormat('gemini-generate'), 'The answer')!;
    const out = filter.pass(gemini('The ans') + gemini('wer is 42', 'STOP'));
    expect(textOf(out, (d) => ((d.candidates as { content: { parts: { text: string }[] } }[])[0]!.content.parts.map((p) => p.text).join('')))).toBe(' is 42');
    expect(out).toContain('"finishReason":"STOP"');
  });

  it('Anthropic: drops message_start and block openings, trims text deltas', () => {
    const filter = createReplayFilter(getFormat('anthropic-messages'), 'Good morn')!;
    let out = filter.pass(anthropic('message_start', { message: { id: 'm2' } }) + anthropic('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    out += filter.pass(anthropic('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Good morning' } }));
    out += filter.pass(anthropic('content_block_stop', { index: 0 }) + anthropic('message_stop', {}));
    expect(out).not.toContain('message_start');
    expect(out).not.toContain('content_block_start');
    expect(textOf(out, (d) => (d.delta as { text?: string } | undefined)?.text ?? '')).toBe('ing');
    expect(out).toContain('event: message_stop');
  });

  it('has no filter for a client format it cannot read', () => {
    expect(createReplayFilter(getFormat('openai-responses'), 'x')).toBeNull();
  });
});
