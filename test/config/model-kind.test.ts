// A model's kind: declared by the operator, else read from the shape of its prices (src/config/model-kind.ts).
import { describe, expect, it } from 'vitest';
import { modelKind } from '../../src/config/model-kind.ts';

describe('modelKind', () => {
  it('reads the kind from the prices when none is declared', () => {
    expect(modelKind(undefined, { inputPerMtok: 150_000, outputPerMtok: 600_000 })).toBe('chat');
    expect(modelKind(undefined, { inputPerMtok: 20_000 })).toBe('embedding');
    expect(modelKind(undefined, { perImage: { '1024x1024': 40_000 } })).toBe('image');
    expect(modelKind(undefined, { perAudioMinute: 6_000 })).toBe('audio');
    expect(modelKind(undefined, { perMillionChars: 15_000_000 })).toBe('audio');
    expect(modelKind(undefined, { perSearch: 2_000 })).toBe('rerank');
    // A chat model with web search keeps its token prices: still chat.
    expect(modelKind(undefined, { inputPerMtok: 1, outputPerMtok: 2, perSearch: 10_000 })).toBe('chat');
    // Input-only prices with a cache price are a chat model's, not an embedding's.
    expect(modelKind(undefined, { inputPerMtok: 1, cachedInputPerMtok: 1 })).toBe('chat');
    // Free or per-request models: chat, the common case.
    expect(modelKind(undefined, {})).toBe('chat');
    expect(modelKind(undefined, { perRequest: 1_000 })).toBe('chat');
    expect(modelKind(undefined, undefined)).toBe('chat');
  });

  it('a declared kind wins over the prices', () => {
    expect(modelKind('chat', { inputPerMtok: 20_000 })).toBe('chat');
    expect(modelKind('rerank', { inputPerMtok: 1, outputPerMtok: 2 })).toBe('rerank');
  });
});
