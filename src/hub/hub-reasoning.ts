// Reasoning is asked for as an effort (OpenAI), a token budget (Anthropic, Gemini 2.5) or a level (Gemini 3).
// These tables translate between them; the budgets follow the providers' documented ranges.
import type { HubReasoningConfig, HubReasoningEffort } from './hub-request.ts';

/** Budgets used when only an effort is known. Anthropic's minimum budget is 1024. */
const EFFORT_BUDGET_TOKENS: Record<HubReasoningEffort, number> = {
  low: 1024,
  medium: 8192,
  high: 24576,
};

function budgetForEffort(effort: HubReasoningEffort): number {
  return EFFORT_BUDGET_TOKENS[effort];
}

/** The nearest effort for a budget: up to 2048 tokens low, up to 12288 medium, above that high. */
export function effortForBudget(budget: number): HubReasoningEffort {
  if (budget <= 2048) return 'low';
  if (budget <= 12288) return 'medium';
  return 'high';
}

/** The budget a request implies: its own, else the one for its effort; undefined when none is implied. */
export function impliedBudget(reasoning: HubReasoningConfig | undefined): number | undefined {
  if (!reasoning || reasoning.disabled) return undefined;
  if (reasoning.budgetTokens !== undefined) return reasoning.budgetTokens;
  if (reasoning.effort) return budgetForEffort(reasoning.effort);
  return undefined;
}

export function impliedEffort(reasoning: HubReasoningConfig | undefined): HubReasoningEffort | undefined {
  if (!reasoning || reasoning.disabled) return undefined;
  if (reasoning.effort) return reasoning.effort;
  if (reasoning.budgetTokens !== undefined) return effortForBudget(reasoning.budgetTokens);
  return undefined;
}
