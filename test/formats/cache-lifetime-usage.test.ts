// The usage readers and writers for cache writes by lifetime (issue 30): Anthropic's (and Vertex Claude's)
// `cache_creation` and Bedrock Converse's `cacheDetails` in, the one-hour part of the cache writes kept apart;
// what a provider leaves out or garbles is no one-hour write, never an error.
import { describe, expect, it } from 'vitest';
import { anthropicUsageToHub, hubUsageToAnthropic, mergeAnthropicUsage } from '../../src/formats/anthropic-messages/anthropic-messages-usage.ts';
import { converseUsageToHub, hubUsageToConverse } from '../../src/formats/bedrock-converse/bedrock-converse-usage.ts';

describe('Anthropic cache_creation', () => {
  it('reads the one-hour writes as a part of the cache writes, and writes the split back', () => {
    const wire = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 2_000, cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1_500 } };
    const hub = anthropicUsageToHub(wire);
    expect(hub).toEqual({ inputTokens: 2_110, cachedInputTokens: 100, cacheWriteTokens: 2_000, cacheWrite1hTokens: 1_500, outputTokens: 5 });
    expect(hubUsageToAnthropic(hub)).toEqual({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 2_000, cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1_500 } });
  });

  it('a stream keeps message_start\'s split when message_delta\'s cumulative counts come without it', () => {
    const start = { input_tokens: 10, cache_creation_input_tokens: 2_000, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2_000 } };
    const merged = mergeAnthropicUsage(start, { output_tokens: 7, cache_creation_input_tokens: 2_000, input_tokens: 10 });
    expect(anthropicUsageToHub(merged)).toMatchObject({ cacheWriteTokens: 2_000, cacheWrite1hTokens: 2_000, outputTokens: 7 });
  });

  it('no split, a zero, or garbage: no one-hour writes, and no split written back', () => {
    for (const cacheCreation of [undefined, null, { ephemeral_5m_input_tokens: 30, ephemeral_1h_input_tokens: 0 }, { ephemeral_1h_input_tokens: 'many' }, [1, 2]]) {
      const hub = anthropicUsageToHub({ input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 30, cache_creation: cacheCreation });
      expect(hub.cacheWrite1hTokens).toBeUndefined();
      expect(hubUsageToAnthropic(hub)).not.toHaveProperty('cache_creation');
    }
  });
});

describe('Bedrock Converse cacheDetails', () => {
  it('sums the one-hour entries and writes the details back, the longer lifetime first', () => {
    const hub = converseUsageToHub({ inputTokens: 10, outputTokens: 4, totalTokens: 2_014, cacheWriteInputTokens: 2_000, cacheDetails: [{ ttl: '1h', inputTokens: 1_200 }, { ttl: '5m', inputTokens: 800 }] });
    expect(hub).toEqual({ inputTokens: 2_010, cacheWriteTokens: 2_000, cacheWrite1hTokens: 1_200, outputTokens: 4 });
    expect(hubUsageToConverse(hub)).toEqual({ inputTokens: 10, outputTokens: 4, totalTokens: 2_014, cacheWriteInputTokens: 2_000, cacheDetails: [{ ttl: '1h', inputTokens: 1_200 }, { ttl: '5m', inputTokens: 800 }] });
  });

  it('five-minute entries only, none, or garbage: no one-hour writes', () => {
    for (const details of [[{ ttl: '5m', inputTokens: 30 }], [], undefined, 'x', [{ ttl: '1h' }], [{ ttl: '1h', inputTokens: 0 }], [null]]) {
      expect(converseUsageToHub({ inputTokens: 1, outputTokens: 1, cacheWriteInputTokens: 30, cacheDetails: details }).cacheWrite1hTokens).toBeUndefined();
    }
  });
});
