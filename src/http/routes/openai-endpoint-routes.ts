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

const endpoints: [url: string, prepare: (body: unknown) => PreparedCall][] = [
  ['/v1/completions', prepareCompletions],
  ['/v1/embeddings', prepareEmbeddings],
  ['/v1/images/generations', prepareImageGenerations],
  ['/v1/audio/speech', prepareSpeech],
  ['/v1/rerank', prepareRerank],
  ['/v1/responses', prepareResponses],
];

export function openAIEndpointRoutes(app: FastifyInstance, deps: RelayDeps): void {
  for (const [url, prepare] of endpoints) {
    relayRoute(app, deps, { url, inboundFormat: url === '/v1/responses' ? 'openai-responses' : 'openai-chat', errorFormat: 'openai', prepare });
  }
}
