// A hub answer and the Response the gateway writes for it, shared by the response and stream tests.
import type { HubResponse } from '../../../hub/hub-response.ts';

/** An Anthropic-like answer: thinking with a signature, text, two parallel tool calls. */
export const hubAnswer: HubResponse = {
  id: 'msg_01ABC',
  model: 'claude-x',
  content: [
    { type: 'reasoning', text: 'Weather and time, both.', signature: 'sig-1' },
    { type: 'text', text: 'Checking ' },
    { type: 'text', text: 'both.' },
    { type: 'tool-call', id: 'toolu_1', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
    { type: 'tool-call', id: 'toolu_2', name: 'get_time', argumentsJson: '{"tz":"CET"}' },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: { inputTokens: 100, cachedInputTokens: 60, cacheWriteTokens: 10, outputTokens: 20, reasoningTokens: 5 },
};

export const expectedResponse = {
  id: 'resp_msg_01ABC',
  object: 'response',
  created_at: 9,
  status: 'completed',
  completed_at: 9,
  error: null,
  incomplete_details: null,
  background: false,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'alias',
  output: [
    { id: 'rs_msg_01ABC_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Weather and time, both.' }], encrypted_content: 'sig-1' },
    {
      id: 'msg_msg_01ABC_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Checking both.' }],
    },
    { id: 'fc_msg_01ABC_2', type: 'function_call', status: 'completed', arguments: '{"city":"Paris"}', call_id: 'toolu_1', name: 'get_weather' },
    { id: 'fc_msg_01ABC_3', type: 'function_call', status: 'completed', arguments: '{"tz":"CET"}', call_id: 'toolu_2', name: 'get_time' },
  ],
  // With no request body to echo, every setting is the API's default.
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  prompt_cache_retention: null,
  reasoning: { effort: null, summary: null },
  safety_identifier: null,
  service_tier: 'default',
  store: true,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_logprobs: 0,
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  truncation: 'disabled',
  user: null,
  metadata: {},
  usage: {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 5 },
    total_tokens: 120,
  },
};
