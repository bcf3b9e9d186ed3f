// A Vertex AI channel's own settings (its `vertex:` block), from which its provider is built. Declared once
// here: the config file, the admin API and the dashboard's channel form are derived from it.
import { z } from 'zod';
import { setting } from './provider-entry.ts';

export const vertexSettings = {
  vertex: setting(z.object({
    project: setting(z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/, 'a Google Cloud project id (lowercase letters, digits and hyphens)'), {
      title: 'Google Cloud project', examples: ['my-project'],
    }),
    location: setting(z.string().regex(/^(?:global|[a-z]+-[a-z]+\d+)$/, 'a Vertex AI location such as us-central1, europe-west4 or global'), {
      title: 'Vertex AI location', description: 'A region such as us-central1, or global.', examples: ['us-central1'],
    }),
    token_url: setting(z.url({ protocol: /^https?$/ }).optional(), {
      title: 'Token endpoint', description: "Replaces Google's token endpoint (a private endpoint).", examples: ['https://oauth2.googleapis.com/token'],
    }),
  }).strict(), { title: 'Vertex AI' }),
};

export type VertexChannelSettings = z.output<typeof vertexSettings.vertex>;
