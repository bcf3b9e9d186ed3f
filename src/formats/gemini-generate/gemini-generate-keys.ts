// Gemini's REST API takes proto JSON, which accepts snake_case as well as camelCase field names, and
// Google's own curl examples use snake_case (system_instruction, inline_data). Bodies are normalised to
// camelCase here, except inside values that are the caller's own data (function arguments, schemas).

/** Fields whose values belong to the caller: their keys are never renamed. */
const OPAQUE = new Set(['args', 'response', 'parameters', 'parametersJsonSchema', 'responseSchema', 'responseJsonSchema', 'labels', 'partialArgs']);

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

export function normalizeGeminiKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeGeminiKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = camel(key);
    out[name] = OPAQUE.has(name) ? inner : normalizeGeminiKeys(inner);
  }
  return out;
}
