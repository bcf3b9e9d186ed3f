// Gemini's responseSchema and function `parameters` use an OpenAPI 3.0 subset with upper-case type names
// ("OBJECT"); the hub carries JSON Schema. This turns the first into the second.

export function openApiSchemaToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openApiSchemaToJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'nullable') continue;
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, openApiSchemaToJsonSchema(inner)]));
    } else if (key === 'items' || key === 'anyOf') out[key] = openApiSchemaToJsonSchema(value);
    else out[key] = value;
  }
  // OpenAPI's nullable is JSON Schema's type union with null.
  if ((schema as Record<string, unknown>).nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}
