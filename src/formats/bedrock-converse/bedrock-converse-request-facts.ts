// What the pipeline reads from a Bedrock Converse body before sending it.
import { isObject, positiveCount, requestFacts } from '../shared/request-facts.ts';

export const bedrockConverseRequestFacts = requestFacts(
  (body) => (isObject(body.inferenceConfig) ? positiveCount(body.inferenceConfig.maxTokens) : undefined),
  { turns: ['messages'], other: ['system', 'toolConfig'] },
);
