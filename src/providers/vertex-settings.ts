// A Vertex AI channel's own settings (its `vertex:` block), from which its provider is built.

export interface VertexChannelSettings {
  project: string;
  /** A region (us-central1, europe-west4) or `global`. */
  location: string;
  /** Replaces Google's token endpoint (a private endpoint; tests). */
  tokenUrl?: string;
}
