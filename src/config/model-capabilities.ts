// What a model supports, as its entry declares it (config file `models:` and the admin model API, under
// `capabilities`; kept in the models row's limits_json). Undeclared means unknown, and nothing is changed:
// a gateway only drops what the operator said the model cannot take. With `unsupported: refuse` the model
// is strict: a request using what it lacks gets a 400 naming the parameter instead.
import { z } from 'zod';

/** What a model is for; the playground offers chat models only, the pricing page names the kind. */
export const MODEL_KINDS = ['chat', 'embedding', 'image', 'audio', 'rerank'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

export const modelCapabilitiesSchema = z.object({
  /** What the model is for; undeclared: read from its prices (modelKind). */
  kind: z.enum(MODEL_KINDS).optional(),
  /** Whether the model reasons (takes reasoning effort / thinking settings). */
  reasoning: z.boolean().optional(),
  /** Whether it returns reasoning summaries (`reasoning.summary`). */
  reasoning_summaries: z.boolean().optional(),
  /** Whether it calls tools. */
  tools: z.boolean().optional(),
  /** Whether it reads images. */
  image_input: z.boolean().optional(),
  /** drop (default): unsupported parameters are left out, and the x-gateway-warnings header names them; refuse: a 400. */
  unsupported: z.enum(['drop', 'refuse']).optional(),
}).strict();

export type ModelCapabilities = z.infer<typeof modelCapabilitiesSchema>;
