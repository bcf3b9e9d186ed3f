// Gemini generateContent wire shapes (checked against @google/genai's genai.d.ts), read after snake_case
// keys were normalised to camelCase. Lenient: unknown fields pass through.
import { z } from 'zod';

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

export const geminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  functionCall: z.looseObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() }).optional(),
  functionResponse: z.looseObject({ name: z.string(), response: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() }).optional(),
});

export type GeminiPart = z.output<typeof geminiPartSchema>;

export const geminiContentSchema = z.looseObject({
  role: z.enum(['user', 'model', 'function']).optional(),
  parts: z.array(geminiPartSchema),
});

export type GeminiContent = z.output<typeof geminiContentSchema>;

const geminiFunctionDeclarationSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
});

const geminiThinkingConfigSchema = z.looseObject({
  includeThoughts: z.boolean().optional(),
  thinkingBudget: z.int().min(-1).optional(),
  thinkingLevel: z.enum(['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH']).optional(),
});

const geminiGenerationConfigSchema = z.looseObject({
  stopSequences: z.array(z.string()).optional(),
  responseMimeType: z.string().optional(),
  responseSchema: z.record(z.string(), z.unknown()).optional(),
  responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
  candidateCount: z.int().min(1).optional(),
  maxOutputTokens: z.int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().min(0).optional(),
  seed: z.int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  thinkingConfig: geminiThinkingConfigSchema.optional(),
});

export const geminiRequestSchema = z.looseObject({
  model: z.string().optional(),
  contents: z.array(geminiContentSchema).min(1),
  systemInstruction: z.union([z.string(), z.looseObject({ parts: z.array(geminiPartSchema) })]).optional(),
  tools: z.array(z.looseObject({ functionDeclarations: z.array(geminiFunctionDeclarationSchema).optional() })).optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({
          mode: z.enum(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']).optional(),
          allowedFunctionNames: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
  generationConfig: geminiGenerationConfigSchema.optional(),
});

export type GeminiRequest = z.output<typeof geminiRequestSchema>;

const geminiUsageSchema = z.looseObject({
  promptTokenCount: nullish(z.number()),
  cachedContentTokenCount: nullish(z.number()),
  candidatesTokenCount: nullish(z.number()),
  thoughtsTokenCount: nullish(z.number()),
  toolUsePromptTokenCount: nullish(z.number()),
  totalTokenCount: nullish(z.number()),
});

export const geminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ role: z.string().optional(), parts: z.array(geminiPartSchema).optional() }).optional(),
        finishReason: z.string().optional(),
        index: z.number().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: geminiUsageSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});

export const geminiErrorSchema = z.looseObject({
  error: z.looseObject({ code: z.number().optional(), message: z.string(), status: z.string().optional() }),
});
