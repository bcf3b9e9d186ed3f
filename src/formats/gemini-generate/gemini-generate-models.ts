// Gemini's model list (GET /v1beta/models) and model object, with the methods the gateway serves for each.
import type { HubModelInfo } from '../../hub/hub-format.ts';

/** What a served model can do, as Gemini's model list says it. */
const GEMINI_SUPPORTED_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'];

export const geminiModelEntry = (model: HubModelInfo) => ({
  name: `models/${model.id}`,
  baseModelId: model.id,
  version: '001',
  displayName: model.id,
  description: `${model.id}, served by the gateway`,
  supportedGenerationMethods: GEMINI_SUPPORTED_METHODS,
});

export const geminiModelList = (models: readonly HubModelInfo[]) => ({ models: models.map(geminiModelEntry) });
