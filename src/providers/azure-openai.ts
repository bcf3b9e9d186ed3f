// Azure OpenAI: OpenAI's wire format on a resource endpoint (https://{resource}.openai.azure.com), in one of
// two path styles. `deployments` (the classic one): /openai/deployments/{deployment}/{operation}?api-version=…,
// the deployment being the channel's upstream model id (its model mapping); `v1`: /openai/v1/{operation},
// the deployment named by the body's `model`, no api-version. The Responses API exists only under /openai/v1,
// so it is called there in both styles. Authentication: the `api-key` header, or Microsoft Entra ID when the
// channel's key is a JSON {tenant_id, client_id, client_secret} (entra-token.ts).
import type { Operation, ProviderDefinition, UpstreamRequestToSign } from './provider-definition.ts';
import { entraAccessToken, forgetEntraToken, parseEntraCredential } from './entra-token.ts';
import { pathSegment } from './path-segment.ts';

/** The latest GA api-version of the dated inference API (learn.microsoft.com, "API specs"); a setting. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

import type { AzureChannelSettings } from './azure-openai-settings.ts';

export type { AzureChannelSettings };

const OPERATION_PATHS: Partial<Record<Operation, string>> = {
  'chat': '/chat/completions',
  'chat-stream': '/chat/completions',
  'completions': '/completions',
  'embeddings': '/embeddings',
  'images-generations': '/images/generations',
  'images-edits': '/images/edits',
  'audio-transcriptions': '/audio/transcriptions',
  'audio-speech': '/audio/speech',
};

export function azureOpenAIProvider(settings: AzureChannelSettings = {}): ProviderDefinition {
  const apiVersion = encodeURIComponent(settings.apiVersion ?? AZURE_DEFAULT_API_VERSION);
  const v1 = settings.pathStyle === 'v1';
  return {
    type: 'azure-openai',
    chatFormat: 'openai-chat',
    // There is no default: every resource has its own host. The config schema requires base_url.
    defaultBaseUrl: '',
    path(operation, upstreamModel) {
      if (operation === 'responses') return '/openai/v1/responses';
      if (operation === 'models') return v1 ? '/openai/v1/models' : `/openai/models?api-version=${apiVersion}`;
      const suffix = OPERATION_PATHS[operation];
      if (suffix === undefined) return null;
      if (v1) return `/openai/v1${suffix}`;
      return `/openai/deployments/${pathSegment(upstreamModel)}${suffix}?api-version=${apiVersion}`;
    },
    authenticate(_request: UpstreamRequestToSign, apiKey: string) {
      const entra = parseEntraCredential(apiKey);
      if (entra === null) return { 'api-key': apiKey };
      return entraAccessToken(entra, settings.entraAuthority).then((token) => ({ authorization: `Bearer ${token}` }));
    },
    forgetCredential(apiKey) {
      try {
        const entra = parseEntraCredential(apiKey);
        if (entra) forgetEntraToken(entra, settings.entraAuthority);
      } catch {
        // not a readable Entra credential: nothing was cached for it
      }
    },
  };
}
