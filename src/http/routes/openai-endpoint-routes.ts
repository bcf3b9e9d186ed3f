// The rest of the OpenAI-compatible JSON surface, each through the same relay route.
import type { FastifyInstance } from 'fastify';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { relayRoute, type PreparedCall } from './relay-route.ts';
import { prepareCompletions } from '../../endpoints/completions.ts';
import { prepareEmbeddings } from '../../endpoints/embeddings.ts';
import { prepareImageGenerations } from '../../endpoints/images-generations.ts';
import { prepareSpeech } from '../../endpoints/audio-speech.ts';
import { prepareRerank } from '../../endpoints/rerank.ts';
import { prepareResponses } from '../../endpoints/responses.ts';
import type { FormatName } from '../../formats/index.ts';

/** Each endpoint with the wire format its clients speak (their errors and its passthrough family follow from it). */
const endpoints: [url: string, prepare: (body: unknown) => PreparedCall, inboundFormat: FormatName][] = [
  ['/v1/completions', prepareCompletions, 'openai-chat'],
  ['/v1/embeddings', prepareEmbeddings, 'openai-chat'],
  ['/v1/images/generations', prepareImageGenerations, 'openai-chat'],
  ['/v1/audio/speech', prepareSpeech, 'openai-chat'],
  ['/v1/rerank', prepareRerank, 'openai-chat'],
  ['/v1/responses', prepareResponses, 'openai-responses'],
];

export function openAIEndpointRoutes(app: FastifyInstance, deps: RelayDeps): void {
  for (const [url, prepare, inboundFormat] of endpoints) {
    relayRoute(app, deps, { url, inboundFormat, prepare });
  }
}
