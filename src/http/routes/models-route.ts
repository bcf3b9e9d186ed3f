// GET /v1/models: exactly the models the calling key can use (its group, then its own restriction).
import type { FastifyInstance } from 'fastify';
import type { GatewayState } from '../../gateway-state.ts';
import { authenticateRequest } from '../authenticate.ts';

export function modelsRoute(app: FastifyInstance, state: GatewayState): void {
  app.get('/v1/models', async (request) => {
    const key = authenticateRequest(state, request);
    const models = state.current.routing.modelsForGroup(key.groupName).filter((model) => !key.models || key.models.has(model.id));
    // Called the Anthropic way (its SDK always sends anthropic-version): Anthropic's list shape.
    if (request.headers['anthropic-version'] !== undefined) {
      return {
        data: models.map((model) => ({ type: 'model', id: model.id, display_name: model.id, created_at: new Date(model.createdAt).toISOString() })),
        has_more: false,
        first_id: models[0]?.id ?? null,
        last_id: models.at(-1)?.id ?? null,
      };
    }
    return {
      object: 'list',
      data: models.map((model) => ({
        id: model.id,
        object: 'model',
        created: Math.floor(model.createdAt / 1000),
        owned_by: model.ownedBy,
      })),
    };
  });
}
