// What the pipeline reads from an OpenAI Responses body before sending it.
import { positiveCount, requestFacts } from '../shared/request-facts.ts';

export const openaiResponsesRequestFacts = requestFacts((body) => positiveCount(body.max_output_tokens), { turns: [], other: ['instructions', 'input', 'tools'] });
