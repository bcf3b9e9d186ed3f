// What the pipeline reads from an Anthropic Messages body before sending it.
import { positiveCount, requestFacts } from '../shared/request-facts.ts';

/** `max_tokens` bounds the whole answer, thinking included. */
export const anthropicMessagesRequestFacts = requestFacts((body) => positiveCount(body.max_tokens), { turns: ['messages'], other: ['system', 'tools'] });
