// OpenAI's model list (GET /v1/models) and model object; the Responses API shares them.
import type { HubModelInfo } from '../../hub/hub-format.ts';

export const openaiModelEntry = (model: HubModelInfo) => ({ id: model.id, object: 'model', created: Math.floor(model.createdAt / 1000), owned_by: model.ownedBy });

export const openaiModelList = (models: readonly HubModelInfo[]) => ({ object: 'list', data: models.map(openaiModelEntry) });
