// The session pin of src/routing/session-affinity.ts: channel first, and one upstream key per session.
import { describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../src/routing/routing-table.ts';
import { sessionOf, withSessionAffinity } from '../../src/routing/session-affinity.ts';

const channel = (id: number, apiKeys: string[]) => ({ id, name: `c${id}`, apiKeys }) as unknown as RoutedChannel;

describe('withSessionAffinity', () => {
  it('pins a session to the channel and key of its first call, and spreads new sessions over the keys', () => {
    const first = withSessionAffinity([channel(1, ['k0', 'k1']), channel(2, ['j0'])], 'key1\u0000s1', 'm', 1000);
    expect(first.map((c) => [c.id, c.apiKeys])).toEqual([[1, ['k0']], [2, ['j0']]]);
    // Routing now orders the other channel first: the session stays where its cache is.
    const again = withSessionAffinity([channel(2, ['j0']), channel(1, ['k0', 'k1'])], 'key1\u0000s1', 'm', 2000);
    expect(again.map((c) => [c.id, c.apiKeys])).toEqual([[1, ['k0']], [2, ['j0']]]);
    const other = withSessionAffinity([channel(1, ['k0', 'k1'])], 'key1\u0000s2', 'm', 2000);
    expect(other[0]!.apiKeys).toEqual(['k1']);
    // Without a session, routing's order as it is.
    const plain = [channel(2, ['j0']), channel(1, ['k0', 'k1'])];
    expect(withSessionAffinity(plain, null, 'm')).toBe(plain);
  });

  it('re-pins when the channel is no longer offered, and forgets a session idle for an hour', () => {
    withSessionAffinity([channel(3, ['a']), channel(4, ['b'])], 'key1\u0000s3', 'm', 0);
    expect(withSessionAffinity([channel(4, ['b'])], 'key1\u0000s3', 'm', 10)[0]!.id).toBe(4);
    expect(withSessionAffinity([channel(3, ['a']), channel(4, ['b'])], 'key1\u0000s3', 'm', 20)[0]!.id).toBe(4);
    expect(withSessionAffinity([channel(3, ['a']), channel(4, ['b'])], 'key1\u0000s3', 'm', 20 + 3_600_001)[0]!.id).toBe(3);
  });
});

describe('sessionOf', () => {
  it('reads the session header, metadata.user_id or prompt_cache_key, scoped to the gateway key', () => {
    const key = { id: 7 };
    expect(sessionOf({ key, body: {}, forwardHeaders: { 'x-claude-code-session-id': 'abc' } })).toBe('7\u0000abc');
    expect(sessionOf({ key, body: { metadata: { user_id: 'u1' } }, forwardHeaders: {} })).toBe('7\u0000u1');
    expect(sessionOf({ key, body: { prompt_cache_key: 'p1' }, forwardHeaders: {} })).toBe('7\u0000p1');
    expect(sessionOf({ key, body: {}, forwardHeaders: {} })).toBeNull();
  });
});

describe('sessionOf for a client that names no session: the conversation\'s fingerprint', () => {
  const key = { id: 7 };
  const long = 'You are a coding agent. '.repeat(200);
  const call = (body: Record<string, unknown>) => ({ key, body, rawBody: Buffer.from(JSON.stringify(body)), forwardHeaders: {} });
  const gemini = (contents: unknown[], system = long) => call({ systemInstruction: { parts: [{ text: system }] }, contents });
  const firstTurn = { role: 'user', parts: [{ text: 'Read the files.' }] };

  it('is the same on every turn of a Gemini CLI session, whose conversation grows after its first user turn', () => {
    const session = sessionOf(gemini([firstTurn]));
    expect(session).toMatch(/^7\u0000conversation:/);
    const later = gemini([firstTurn, { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'x' } } }] }]);
    expect(sessionOf(later)).toBe(session);
    expect(sessionOf(gemini([{ role: 'user', parts: [{ text: 'Another task.' }] }]))).not.toBe(session);
    expect(sessionOf(gemini([firstTurn], `${long}!`))).not.toBe(session);
    expect(sessionOf({ ...gemini([firstTurn]), key: { id: 8 } })).not.toBe(session);
  });

  it('reads OpenAI chat (system message, then the user\'s) and Anthropic messages (system apart) the same way', () => {
    const chat = (more: unknown[]) => call({ messages: [{ role: 'system', content: long }, { role: 'user', content: 'Hi' }, ...more] });
    expect(sessionOf(chat([]))).not.toBeNull();
    expect(sessionOf(chat([{ role: 'assistant', content: 'Hello' }, { role: 'user', content: 'More' }]))).toBe(sessionOf(chat([])));
    const anthropic = (more: unknown[]) => call({ system: long, messages: [{ role: 'user', content: 'Hi' }, ...more] });
    expect(sessionOf(anthropic([{ role: 'assistant', content: 'Hello' }, { role: 'user', content: 'More' }]))).toBe(sessionOf(anthropic([])));
  });

  it('is none for a start too short to be cached, or a body without a conversation', () => {
    expect(sessionOf(gemini([firstTurn], 'Be brief.'))).toBeNull();
    expect(sessionOf(call({ model: 'embed', input: long }))).toBeNull();
    // A long body whose start is short: the rest of the conversation is not part of the fingerprint.
    expect(sessionOf(call({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: long }, { role: 'user', content: 'More' }] }))).toBeNull();
  });
});
