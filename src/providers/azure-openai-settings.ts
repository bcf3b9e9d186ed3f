// An Azure OpenAI channel's own settings (its `azure:` block), from which its provider is built.

export interface AzureChannelSettings {
  apiVersion?: string;
  pathStyle?: 'deployments' | 'v1';
  /** Replaces https://login.microsoftonline.com (sovereign clouds; tests). */
  entraAuthority?: string;
}
