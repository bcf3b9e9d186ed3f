// An Azure OpenAI channel's own settings (its `azure:` block), from which its provider is built. Declared
// once here: the config file, the admin API and the dashboard's channel form are derived from it.
import { z } from 'zod';
import { setting } from './provider-entry.ts';

export const azureSettings = {
  azure: setting(z.object({
    api_version: setting(z.string().regex(/^\d{4}-\d{2}-\d{2}(?:-preview)?$/, 'an api-version such as 2024-10-21 or 2025-04-01-preview').optional(), {
      title: 'Azure api-version', examples: ['2024-10-21'],
    }),
    path_style: setting(z.enum(['deployments', 'v1']).optional(), {
      title: 'Azure path style',
      description: 'deployments: /openai/deployments/{deployment}/… with an api-version; v1: /openai/v1/… with the deployment as the model.',
    }),
    entra_authority: setting(z.url({ protocol: /^https?$/ }).optional(), {
      title: 'Entra ID authority', description: 'Sovereign clouds replace the default.', examples: ['https://login.microsoftonline.com'],
    }),
  }).strict().optional(), { title: 'Azure OpenAI' }),
};

export type AzureChannelSettings = NonNullable<z.output<typeof azureSettings.azure>>;
