// Gemini's urlContextMetadata as hub fetches: a call and a result per URL read, each failed retrieval as the
// closest of Anthropic's fetch error codes; and those fetches as the Anthropic blocks and the Responses item.
import { describe, expect, it } from 'vitest';
import { fetchCount, geminiUrlContextToHub } from './gemini-generate-url-context.ts';
import { hubServerToolCallToAnthropic, hubServerToolResultToAnthropic } from '../anthropic-messages/anthropic-messages-server-tools.ts';
import { webSearchCallItem } from '../openai-responses/openai-responses-web-search.ts';
import type { HubServerToolCallPart, HubServerToolResultPart } from '../../hub/hub-response.ts';

let next = 0;
const newId = () => `call${++next}`;

describe('geminiUrlContextToHub', () => {
  it('reads each retrieved URL as a fetch call and its result; a failed status becomes an error code', () => {
    next = 0;
    const parts = geminiUrlContextToHub({
      urlMetadata: [
        { retrievedUrl: 'https://a.example/', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
        { retrievedUrl: 'https://b.example/', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_PAYWALL' },
        { retrievedUrl: 'https://c.example/', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_UNSAFE' },
        { retrievedUrl: 'https://d.example/', urlRetrievalStatus: 'SOMETHING_NEW' },
        { retrievedUrl: 'https://e.example/' },
        { urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
      ],
    }, newId);
    expect(fetchCount(parts)).toBe(5);
    expect(parts.slice(0, 2)).toEqual([
      { type: 'server-tool-call', id: 'call1', tool: 'web-fetch', queries: [], url: 'https://a.example/' },
      { type: 'server-tool-result', callId: 'call1', tool: 'web-fetch', sources: [{ url: 'https://a.example/' }] },
    ]);
    const errors = parts.filter((part): part is HubServerToolResultPart => part.type === 'server-tool-result').map((part) => part.errorCode);
    expect(errors).toEqual([undefined, 'url_not_accessible', 'url_not_allowed', 'unavailable', undefined]);
  });

  it('reads nothing from an absent or malformed metadata', () => {
    expect(geminiUrlContextToHub(undefined, newId)).toEqual([]);
    expect(geminiUrlContextToHub({ urlMetadata: 'no' }, newId)).toEqual([]);
    expect(geminiUrlContextToHub([], newId)).toEqual([]);
  });
});

describe('a hub fetch written for clients', () => {
  const call: HubServerToolCallPart = { type: 'server-tool-call', id: 'abc-1', tool: 'web-fetch', queries: [], url: 'https://a.example/' };

  it('is Anthropic\'s server_tool_use web_fetch and web_fetch_tool_result; an unknown error code is "unavailable"', () => {
    expect(hubServerToolCallToAnthropic(call)).toEqual({ type: 'server_tool_use', id: 'srvtoolu_abc1', name: 'web_fetch', input: { url: 'https://a.example/' } });
    expect(hubServerToolResultToAnthropic({ type: 'server-tool-result', callId: 'abc-1', tool: 'web-fetch', sources: [{ url: 'https://a.example/' }] })).toEqual({
      type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_abc1',
      content: { type: 'web_fetch_result', url: 'https://a.example/', retrieved_at: null, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '' }, title: null, citations: null } },
    });
    expect(hubServerToolResultToAnthropic({ type: 'server-tool-result', callId: 'abc-1', tool: 'web-fetch', sources: [], errorCode: 'SOMETHING_ELSE' }).content)
      .toEqual({ type: 'web_fetch_tool_result_error', error_code: 'unavailable' });
  });

  it('is a Responses web_search_call with an open_page action', () => {
    expect(webSearchCallItem('ws_1', call, [], 'completed')).toEqual({ id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'open_page', url: 'https://a.example/' } });
  });
});
