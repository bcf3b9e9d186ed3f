// The settings a Response object repeats from its request. OpenAI's Response (and the Open Responses spec,
// which makes every one of these fields required) echoes what the request set and the API's defaults
// otherwise, so a translated answer reads the client's own body rather than the hub: the hub does not keep
// fields no other format has (top_logprobs, safety_identifier, truncation, …).

type Body = Record<string, unknown>;

const asObject = (value: unknown): Body | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : undefined;
const numberOr = (value: unknown, fallback: number | null) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const stringOr = <T extends string | null>(value: unknown, fallback: T) => (typeof value === 'string' ? value : fallback);
const booleanOr = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);

/** A function tool as the Response lists it: every field present, description and strict null when unset. */
function echoTool(raw: unknown): unknown {
  const tool = asObject(raw);
  if (!tool || tool.type !== 'function') return raw;
  return {
    type: 'function',
    name: tool.name,
    description: stringOr(tool.description, null),
    parameters: asObject(tool.parameters) ?? null,
    strict: typeof tool.strict === 'boolean' ? tool.strict : null,
  };
}

function echoText(raw: unknown): Body {
  const text = asObject(raw) ?? {};
  return { format: asObject(text.format) ?? { type: 'text' }, verbosity: stringOr(text.verbosity, 'medium') };
}

function echoReasoning(raw: unknown): Body {
  const reasoning = asObject(raw) ?? {};
  return { effort: stringOr(reasoning.effort, null), summary: stringOr(reasoning.summary ?? reasoning.generate_summary, null) };
}

/**
 * The echo fields of a Response for this request body, in OpenAI's order. `store` repeats the request
 * (true by default, as OpenAI's): the gateway keeps a translated response when it is set. `service_tier` is
 * always "default": a tier is OpenAI's, and another provider's answer was not served from one.
 */
export function responseEchoFields(requestBody: unknown): { head: Body; tail: Body } {
  const body = asObject(requestBody) ?? {};
  const head: Body = {
    background: false,
    instructions: stringOr(body.instructions, null),
    max_output_tokens: numberOr(body.max_output_tokens, null),
    max_tool_calls: numberOr(body.max_tool_calls, null),
  };
  const tail: Body = {
    parallel_tool_calls: booleanOr(body.parallel_tool_calls, true),
    previous_response_id: stringOr(body.previous_response_id, null),
    prompt_cache_key: stringOr(body.prompt_cache_key, null),
    prompt_cache_retention: stringOr(body.prompt_cache_retention, null),
    reasoning: echoReasoning(body.reasoning),
    safety_identifier: stringOr(body.safety_identifier, null),
    service_tier: 'default',
    store: booleanOr(body.store, true),
    temperature: numberOr(body.temperature, 1),
    text: echoText(body.text),
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools.map(echoTool) : [],
    top_logprobs: numberOr(body.top_logprobs, 0),
    top_p: numberOr(body.top_p, 1),
    presence_penalty: numberOr(body.presence_penalty, 0),
    frequency_penalty: numberOr(body.frequency_penalty, 0),
    truncation: stringOr(body.truncation, 'disabled'),
    user: stringOr(body.user, null),
    metadata: asObject(body.metadata) ?? {},
  };
  return { head, tail };
}
