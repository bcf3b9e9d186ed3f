// The settings a provider's block marks secret (setting(…, { secret: true })): kept apart from the others,
// encrypted at rest with the upstream keys' SecretBox, never shown back by the admin API, and left as they
// are by an edit that does not give them again (the form's "leave empty to keep").
import { z } from 'zod';
import { isSecretSetting, type ProviderEntry } from './provider-entry.ts';

/** Secret values by their path in the settings: `region`, or `block.field` for a field of a block. */
export type SecretSettings = Record<string, string>;

/** The block's fields when a setting is a block (an object, optional or not); null for a plain field. */
function blockShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
  return current instanceof z.ZodObject ? current.shape as Record<string, z.ZodType> : null;
}

/** The paths of the entry's secret settings, as [field] or [block, field]. */
function secretPaths(entry: ProviderEntry): string[][] {
  const paths: string[][] = [];
  for (const [field, schema] of Object.entries(entry.settings ?? {})) {
    if (isSecretSetting(schema)) {
      paths.push([field]);
      continue;
    }
    for (const [inner, innerSchema] of Object.entries(blockShape(schema) ?? {})) if (isSecretSetting(innerSchema)) paths.push([field, inner]);
  }
  return paths;
}

/** The settings without their secret values, and those values apart (null when there are none). */
export function takeSecrets(entry: ProviderEntry, settings: Record<string, unknown>): { open: Record<string, unknown>; secret: SecretSettings | null } {
  const open: Record<string, unknown> = { ...settings };
  const secret: SecretSettings = {};
  for (const path of secretPaths(entry)) {
    const [field, inner] = path as [string, string | undefined];
    if (inner === undefined) {
      if (typeof open[field] === 'string') secret[field] = open[field];
      delete open[field];
    } else if (open[field] && typeof open[field] === 'object') {
      const { [inner]: value, ...rest } = open[field] as Record<string, unknown>;
      if (typeof value === 'string') secret[`${field}.${inner}`] = value;
      open[field] = rest;
    }
  }
  return { open, secret: Object.keys(secret).length > 0 ? secret : null };
}

/** The settings with secret values put back where they are absent (an edit that gave a new value keeps it). */
export function putSecrets(settings: Record<string, unknown>, secret: SecretSettings | null): Record<string, unknown> {
  if (!secret) return settings;
  const merged: Record<string, unknown> = { ...settings };
  for (const [path, value] of Object.entries(secret)) {
    const [field, inner] = path.split('.') as [string, string | undefined];
    if (inner === undefined) {
      merged[field] ??= value;
    } else {
      const block = merged[field] && typeof merged[field] === 'object' ? merged[field] as Record<string, unknown> : {};
      merged[field] = { ...block, [inner]: block[inner] ?? value };
    }
  }
  return merged;
}

/** What seals and opens secrets (the upstream keys' SecretBox). */
interface Sealer {
  encrypt(plaintext: string): string;
  decrypt(sealed: string): string;
}

/** The secret settings sealed; the previous sealed value when it holds the same (a re-applied config file rewrites nothing). */
export function sealSecretSettings(box: Sealer, secret: SecretSettings, previous?: unknown): string {
  const text = JSON.stringify(secret);
  if (typeof previous === 'string') {
    try {
      if (box.decrypt(previous) === text) return previous;
    } catch {
      // sealed under another GATEWAY_SECRET: sealed again below
    }
  }
  return box.encrypt(text);
}

/** The stored secret settings (settings_json's providerSecrets), opened; null when there are none. */
export function openSecretSettings(box: Sealer, sealed: unknown): SecretSettings | null {
  return typeof sealed === 'string' ? JSON.parse(box.decrypt(sealed)) as SecretSettings : null;
}
