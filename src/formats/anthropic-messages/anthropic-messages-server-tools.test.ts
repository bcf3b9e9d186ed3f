// A cited hub text as Anthropic blocks: Anthropic cites whole blocks, so spans (Gemini's grounding supports)
// cut the text into blocks at their edges; the text read back is the same.
import { describe, expect, it } from 'vitest';
import { hubTextToAnthropicBlocks } from './anthropic-messages-server-tools.ts';

describe('hubTextToAnthropicBlocks', () => {
  it('cuts a text at its citations\' spans, keeping the uncited text in plain blocks', () => {
    const text = 'First fact. Plain words. Second fact.';
    const blocks = hubTextToAnthropicBlocks({
      type: 'text', text, citations: [
        { url: 'https://b.example', startIndex: 25, endIndex: 37 },
        { url: 'https://a.example', title: 'A', startIndex: 0, endIndex: 11 },
      ],
    });
    expect(blocks.map((block) => block.text).join('')).toBe(text);
    expect(blocks).toEqual([
      { type: 'text', text: 'First fact.', citations: [{ type: 'web_search_result_location', url: 'https://a.example', title: 'A', cited_text: 'First fact.', encrypted_index: '' }] },
      { type: 'text', text: ' Plain words. ' },
      { type: 'text', text: 'Second fact.', citations: [{ type: 'web_search_result_location', url: 'https://b.example', title: null, cited_text: 'Second fact.', encrypted_index: '' }] },
    ]);
  });

  it('puts overlapping citations on one block, and a citation without a span on the whole text', () => {
    const overlapping = hubTextToAnthropicBlocks({ type: 'text', text: 'abcdef', citations: [{ url: 'https://x', startIndex: 0, endIndex: 4 }, { url: 'https://y', startIndex: 2, endIndex: 6 }] });
    expect(overlapping).toHaveLength(1);
    expect((overlapping[0]!.citations as unknown[]).length).toBe(2);
    expect(hubTextToAnthropicBlocks({ type: 'text', text: 'abc', citations: [{ url: 'https://x' }] })).toEqual([
      { type: 'text', text: 'abc', citations: [{ type: 'web_search_result_location', url: 'https://x', title: null, cited_text: 'abc', encrypted_index: '' }] },
    ]);
  });
});
