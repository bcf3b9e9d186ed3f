// GET /v1/models: exactly the models the calling key can use (its group, then its own restriction), and the
// one-model lookups in the caller's shape. Model ids may carry a prefix with slashes
// (`google/gemini-2.0-flash`): the lookups take the rest of the path, so they work encoded or not.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayState } from '../../gateway-state.ts';
import type { ModelInfo } from '../../routing/routing-table.ts';
import { modelNotFound } from '../../gateway-errors.ts';
import { authenticateRequest } from '../authenticate.ts';

/** What a served model can do, as Gemini's model list says it. */
export const GEMINI_SUPPORTED_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'];

export function modelsRoute(app: FastifyInstance, state: GatewayState): void {
  app.get('/v1/models', async (request) => {
    const models = modelsOfKey(state, request);
    // Called the Anthropic way (its SDK always sends anthropic-version): Anthropic's list shape.
    if (request.headers['anthropic-version'] !== undefined) {
      return {
        data: models.map(anthropicModel),
        has_more: false,
        first_id: models[0]?.id ?? null,
        last_id: models.at(-1)?.id ?? null,
      };
    }
    return { object: 'list', data: models.map(openAIModel) };
  });
  app.get('/v1beta/models', { config: { errorFormat: 'gemini' } }, async (request) => ({ models: modelsOfKey(state, request).map(geminiModel) }));
}

function modelsOfKey(state: GatewayState, request: FastifyRequest): ModelInfo[] {
  const key = authenticateRequest(state, request);
  return state.current.routing.modelsForGroup(key.groupName).filter((model) => !key.models || key.models.has(model.id));
}

/**
 * One model the key may use, in the caller's shape: GET /v1beta/models/{id} (Gemini), /v1/models/{id}
 * (Anthropic's shape when called with anthropic-version, else OpenAI's); 404 model_not_found otherwise,
 * also for a model that exists but this key may not see (no enumeration of other groups' models).
 */
export function retrieveModel(state: GatewayState, request: FastifyRequest, id: string, gemini: boolean): object {
  request.errorFormat = gemini ? 'gemini' : request.headers['anthropic-version'] !== undefined ? 'anthropic' : 'openai';
  const bare = gemini && id.startsWith('models/') ? id.slice('models/'.length) : id;
  const model = modelsOfKey(state, request).find((candidate) => candidate.id === bare);
  if (!model) throw modelNotFound(bare);
  if (gemini) return geminiModel(model);
  if (request.headers['anthropic-version'] !== undefined) return anthropicModel(model);
  return openAIModel(model);
}

const openAIModel = (model: ModelInfo) => ({ id: model.id, object: 'model', created: Math.floor(model.createdAt / 1000), owned_by: model.ownedBy });

const anthropicModel = (model: ModelInfo) => ({ type: 'model', id: model.id, display_name: model.id, created_at: new Date(model.createdAt).toISOString() });

const geminiModel = (model: ModelInfo) => ({
  name: `models/${model.id}`,
  baseModelId: model.id,
  version: '001',
  displayName: model.id,
  description: `${model.id}, served by the gateway`,
  supportedGenerationMethods: GEMINI_SUPPORTED_METHODS,
});
