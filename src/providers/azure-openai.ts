// Azure OpenAI: OpenAI's wire format on a resource endpoint (https://{resource}.openai.azure.com), in one of
// two path styles. `deployments` (the classic one): /openai/deployments/{deployment}/{operation}?api-version=…,
// the deployment being the channel's upstream model id (its model mapping); `v1`: /openai/v1/{operation},
// the deployment named by the body's `model`, no api-version. The Responses API exists only under /openai/v1,
// so it is called there in both styles. Authentication: the `api-key` header, or Microsoft Entra ID when the
// channel's key is a JSON {tenant_id, client_id, client_secret} (entra-token.ts).
import type { Operation, ProviderDefinition, UpstreamRequestToSign } from './provider-definition.ts';
import { defineProvider } from './provider-entry.ts';
import { entraAccessToken, forgetEntraToken, parseEntraCredential } from './entra-token.ts';
import { pathSegment } from './path-segment.ts';

/** The latest GA api-version of the dated inference API (learn.microsoft.com, "API specs"); a setting. */
const AZURE_DEFAULT_API_VERSION = '2024-10-21';

import { azureSettings, type AzureChannelSettings } from './azure-openai-settings.ts';

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

function azureOpenAIProvider(settings: AzureChannelSettings = {}): ProviderDefinition {
  const apiVersion = encodeURIComponent(settings.api_version ?? AZURE_DEFAULT_API_VERSION);
  const v1 = settings.path_style === 'v1';
  return {
    type: 'azure-openai',
    chatFormat: 'openai-chat',
    // There is no default: every resource has its own host (the entry's needsBaseUrl).
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
      return entraAccessToken(entra, settings.entra_authority).then((token) => ({ authorization: `Bearer ${token}` }));
    },
    forgetCredential(apiKey) {
      try {
        const entra = parseEntraCredential(apiKey);
        if (entra) forgetEntraToken(entra, settings.entra_authority);
      } catch {
        // not a readable Entra credential: nothing was cached for it
      }
    },
  };
}

export const azureOpenAIEntry = defineProvider({
  type: 'azure-openai',
  chatFormat: 'openai-chat',
  settings: azureSettings,
  credential: { label: 'Upstream API key', description: 'The resource key, or for Microsoft Entra ID a JSON {"tenant_id", "client_id", "client_secret"}.' },
  needsBaseUrl: 'an azure-openai channel needs base_url: its resource endpoint, such as https://my-resource.openai.azure.com',
  // Azure's docs show https://{resource}.openai.azure.com/openai/v1/; the gateway writes /openai/… itself.
  baseUrlVersionSuffix: /\/openai(?:\/v1)?$/,
  create: (settings) => azureOpenAIProvider(settings.azure),
});
