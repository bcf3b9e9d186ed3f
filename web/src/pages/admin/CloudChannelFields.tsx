// The settings of the cloud channel types (issue 17), shown in the channel form only for their type:
// Azure OpenAI's api-version, path style and Entra ID authority; Vertex AI's project, location and token
// endpoint. What each type's upstream key holds is described under the key field.
import { Select, TextInput } from '@mantine/core';

export interface CloudSettings {
  azure: { api_version: string; path_style: string; entra_authority: string };
  vertex: { project: string; location: string; token_url: string };
}

export function initialCloudSettings(existing: { azure?: Partial<CloudSettings['azure']>; vertex?: Partial<CloudSettings['vertex']> } | null): CloudSettings {
  return {
    azure: { api_version: existing?.azure?.api_version ?? '', path_style: existing?.azure?.path_style ?? 'deployments', entra_authority: existing?.azure?.entra_authority ?? '' },
    vertex: { project: existing?.vertex?.project ?? '', location: existing?.vertex?.location ?? '', token_url: existing?.vertex?.token_url ?? '' },
  };
}

/** The settings block the API expects for the type, without empty fields; nothing for other types. */
export function cloudSettingsBody(type: string, settings: CloudSettings): Record<string, unknown> {
  const filled = (block: Record<string, string>) => Object.fromEntries(Object.entries(block).map(([key, value]) => [key, value.trim()]).filter(([, value]) => value !== ''));
  if (type === 'azure-openai') return { azure: filled(settings.azure) };
  if (type === 'vertex') return { vertex: filled(settings.vertex) };
  return {};
}

/** What the upstream key field holds for each type. */
export function keyDescription(type: string): string | null {
  if (type === 'azure-openai') return 'The resource key, or for Microsoft Entra ID a JSON {"tenant_id", "client_id", "client_secret"}.';
  if (type === 'vertex') return "The service account's JSON key file, pasted whole.";
  if (type === 'bedrock') return 'ACCESS_KEY_ID:SECRET_ACCESS_KEY, or ACCESS_KEY_ID:SECRET_ACCESS_KEY:SESSION_TOKEN.';
  return null;
}

export function CloudChannelFields({ type, settings, onChange }: { type: string; settings: CloudSettings; onChange: (next: CloudSettings) => void }) {
  if (type === 'azure-openai') {
    const set = (field: keyof CloudSettings['azure'], value: string) => onChange({ ...settings, azure: { ...settings.azure, [field]: value } });
    return (
      <>
        <Select
          label="Azure path style"
          description="deployments: /openai/deployments/{deployment}/… with an api-version; v1: /openai/v1/… with the deployment as the model."
          data={['deployments', 'v1']}
          value={settings.azure.path_style}
          onChange={(value) => set('path_style', value ?? 'deployments')}
          allowDeselect={false}
        />
        <TextInput label="Azure api-version" placeholder="2024-10-21" value={settings.azure.api_version} onChange={(event) => set('api_version', event.currentTarget.value)} />
        <TextInput label="Entra ID authority" placeholder="https://login.microsoftonline.com" value={settings.azure.entra_authority} onChange={(event) => set('entra_authority', event.currentTarget.value)} />
      </>
    );
  }
  if (type === 'vertex') {
    const set = (field: keyof CloudSettings['vertex'], value: string) => onChange({ ...settings, vertex: { ...settings.vertex, [field]: value } });
    return (
      <>
        <TextInput label="Google Cloud project" placeholder="my-project" value={settings.vertex.project} onChange={(event) => set('project', event.currentTarget.value)} />
        <TextInput label="Vertex AI location" description="A region such as us-central1, or global." placeholder="us-central1" value={settings.vertex.location} onChange={(event) => set('location', event.currentTarget.value)} />
        <TextInput label="Token endpoint" placeholder="https://oauth2.googleapis.com/token" value={settings.vertex.token_url} onChange={(event) => set('token_url', event.currentTarget.value)} />
      </>
    );
  }
  return null;
}
