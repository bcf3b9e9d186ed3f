// Anthropic's model list (GET /v1/models, one page holding every model) and model object.
import type { HubModelInfo } from '../../hub/hub-format.ts';

export const anthropicModelEntry = (model: HubModelInfo) => ({ type: 'model', id: model.id, display_name: model.id, created_at: new Date(model.createdAt).toISOString() });

export const anthropicModelList = (models: readonly HubModelInfo[]) => ({
  data: models.map(anthropicModelEntry),
  has_more: false,
  first_id: models[0]?.id ?? null,
  last_id: models.at(-1)?.id ?? null,
});
