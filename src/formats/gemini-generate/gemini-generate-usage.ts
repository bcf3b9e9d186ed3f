// Gemini usageMetadata ⇄ hub usage. promptTokenCount includes cached tokens, as the hub's input does;
// candidatesTokenCount leaves out thoughtsTokenCount, while the hub's output includes reasoning.
// Google leaves zero counts out of the JSON, and its stream chunks before the last carry the prompt count
// only: an absent count is unknown here, and the relay counts what was delivered instead.
// toolUsePromptTokenCount (what Google's own tools put before the model: the pages urlContext read) is
// billed by Google as input and left out of promptTokenCount: it is added to the hub's input.
import type { HubUsage } from '../../hub/hub-response.ts';
import { asObject, countField, sumKnown, knownCounts } from '../shared/usage-fields.ts';

export function geminiUsageToHub(wire: unknown): HubUsage {
  const usage = asObject(wire);
  if (!usage) return {};
  const thoughts = countField(usage.thoughtsTokenCount);
  const prompt = countField(usage.promptTokenCount);
  return knownCounts<HubUsage>({
    inputTokens: prompt === undefined ? undefined : prompt + (countField(usage.toolUsePromptTokenCount) ?? 0),
    cachedInputTokens: countField(usage.cachedContentTokenCount),
    outputTokens: sumKnown(countField(usage.candidatesTokenCount), thoughts),
    reasoningTokens: thoughts,
  });
}

export function hubUsageToGemini(usage: HubUsage): Record<string, number> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  const out: Record<string, number> = {
    promptTokenCount: input,
    candidatesTokenCount: Math.max(0, output - reasoning),
    totalTokenCount: input + output,
  };
  if (usage.cachedInputTokens) out.cachedContentTokenCount = usage.cachedInputTokens;
  if (reasoning > 0) out.thoughtsTokenCount = reasoning;
  return out;
}
