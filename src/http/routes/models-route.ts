// GET /v1/models: exactly the models the calling key can use (its group, then its own restriction), and the
// one-model lookups in the caller's shape. Model ids may carry a prefix with slashes
// (`google/gemini-2.0-flash`): the lookups take the rest of the path, so they work encoded or not.
import { registeredName } from '../error-formats.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayState } from '../../gateway-state.ts';
import type { ModelInfo } from '../../routing/routing-table.ts';
import { modelNotFound } from '../../gateway-errors.ts';
import { authenticateRequest } from '../authenticate.ts';
import type { FormatConverters } from '../../hub/hub-format.ts';
import { anthropicMessagesFormat, geminiGenerateFormat, openaiChatFormat } from '../../formats/index.ts';

export function modelsRoute(app: FastifyInstance, state: GatewayState): void {
  app.get('/v1/models', async (request) => {
    const models = modelsOfKey(state, request);
    // Called the Anthropic way (its SDK always sends anthropic-version): Anthropic's list shape.
    return listingFormat(request, false).modelList(models);
  });
  app.get('/v1beta/models', { config: { errorFormat: 'gemini-generate' } }, async (request) => geminiGenerateFormat.modelList(modelsOfKey(state, request)));
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
  // Errors in the same caller's format as the answer.
  request.errorFormat = registeredName(listingFormat(request, gemini));
  const bare = gemini && id.startsWith('models/') ? id.slice('models/'.length) : id;
  const model = modelsOfKey(state, request).find((candidate) => candidate.id === bare);
  if (!model) throw modelNotFound(bare);
  return listingFormat(request, gemini).modelEntry(model);
}

/** The format whose model-list shape the caller expects: the shapes are declared by the formats. */
function listingFormat(request: FastifyRequest, gemini: boolean): FormatConverters {
  if (gemini) return geminiGenerateFormat;
  return request.headers['anthropic-version'] !== undefined ? anthropicMessagesFormat : openaiChatFormat;
}
