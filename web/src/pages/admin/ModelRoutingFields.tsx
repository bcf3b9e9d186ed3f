// The rest of a model beyond its prices, as the config file holds it: fallbacks (other models tried when
// this one fails everywhere), hedging, the context and output limits, the image limits and the capabilities.
// Checked here as the server checks them (src/admin/admin-number-rules.ts), never rewritten.
import { Fieldset, MultiSelect, NumberInput, SimpleGrid, Stack, TagsInput, Textarea } from '@mantine/core';
import { exactNumberProps, numberProblems, type NumberRule } from '../../components/number-rules.ts';
import { i18n } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';

export interface RoutingFormState {
  fallbacks: string[];
  hedgeAfterMs: number | string;
  contextWindow: number | string;
  maxOutputTokens: number | string;
  imageSizes: string[];
  maxImages: number | string;
  maxPromptChars: number | string;
  capabilities: string;
}

/** The stored model's fields this part of the form edits (the rest is kept as it was). */
export const ROUTING_FORM_FIELDS: readonly string[] = ['fallbacks', 'hedge_after_ms', 'context_window', 'max_output_tokens', 'image_sizes', 'max_images', 'max_prompt_chars', 'capabilities'];

const RULES: Record<'hedgeAfterMs' | 'contextWindow' | 'maxOutputTokens' | 'maxImages' | 'maxPromptChars', NumberRule> = {
  hedgeAfterMs: { optional: true, integer: true, min: 0, max: 600_000 },
  contextWindow: { optional: true, integer: true, min: 1, max: 100_000_000 },
  maxOutputTokens: { optional: true, integer: true, min: 1, max: 100_000_000 },
  maxImages: { optional: true, integer: true, min: 1, max: 1_000 },
  maxPromptChars: { optional: true, integer: true, min: 1, max: 100_000_000 },
};
const IMAGE_SIZE = /^\d+x\d+$|^auto$/;

const text = (value: unknown): number | string => (typeof value === 'number' ? value : '');

export function routingFormState(model: Record<string, unknown> | null): RoutingFormState {
  return {
    fallbacks: Array.isArray(model?.fallbacks) ? (model.fallbacks as string[]) : [],
    hedgeAfterMs: text(model?.hedge_after_ms),
    contextWindow: text(model?.context_window),
    maxOutputTokens: text(model?.max_output_tokens),
    imageSizes: Array.isArray(model?.image_sizes) ? (model.image_sizes as string[]) : [],
    maxImages: text(model?.max_images),
    maxPromptChars: text(model?.max_prompt_chars),
    capabilities: model?.capabilities ? JSON.stringify(model.capabilities, null, 2) : '',
  };
}

/** What is wrong, keyed by field, or nothing. */
export function routingProblems(state: RoutingFormState, modelId: string): Record<string, string> {
  const problems: Record<string, string> = { ...numberProblems(state, RULES) };
  if (state.fallbacks.includes(modelId.trim())) problems.fallbacks = i18n.t('admin.routing.self');
  if (state.fallbacks.length > 16) problems.fallbacks = i18n.t('admin.routing.max');
  const badSize = state.imageSizes.find((size) => !IMAGE_SIZE.test(size));
  if (badSize !== undefined) problems.imageSizes = i18n.t('admin.routing.badSize', { size: badSize });
  if (state.capabilities.trim()) {
    try {
      const parsed = JSON.parse(state.capabilities) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) problems.capabilities = i18n.t('admin.routing.json');
    } catch {
      problems.capabilities = i18n.t('admin.routing.json');
    }
  }
  return problems;
}

/** The config file's fields: only what is set (an empty field leaves the setting out). */
export function routingFormBody(state: RoutingFormState): Record<string, unknown> {
  const number = (value: number | string) => (String(value).trim() === '' ? undefined : Number(value));
  const body: Record<string, unknown> = {
    fallbacks: state.fallbacks,
    hedge_after_ms: number(state.hedgeAfterMs),
    context_window: number(state.contextWindow),
    max_output_tokens: number(state.maxOutputTokens),
    image_sizes: state.imageSizes.length > 0 ? state.imageSizes : undefined,
    max_images: number(state.maxImages),
    max_prompt_chars: number(state.maxPromptChars),
    capabilities: state.capabilities.trim() ? (JSON.parse(state.capabilities) as unknown) : undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

export function ModelRoutingFields({ state, onChange, errors, models }: { state: RoutingFormState; onChange: (state: RoutingFormState) => void; errors: Record<string, string>; models: string[] }) {
  const set = (change: Partial<RoutingFormState>) => onChange({ ...state, ...change });
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('admin.routing.legend')}>
      <Stack gap="xs">
        <MultiSelect
          label={t('admin.routing.fallbacks')}
          description={t('admin.routing.fallbacksHint')}
          data={[...new Set([...models, ...state.fallbacks])]}
          value={state.fallbacks}
          onChange={(value) => set({ fallbacks: value })}
          searchable
          clearable
          error={errors.fallbacks}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <NumberInput label={t('admin.routing.hedge')} description={t('admin.routing.hedgeHint')} {...exactNumberProps} value={state.hedgeAfterMs} onChange={(value) => set({ hedgeAfterMs: value })} error={errors.hedgeAfterMs} />
          <NumberInput label={t('admin.routing.context')} {...exactNumberProps} value={state.contextWindow} onChange={(value) => set({ contextWindow: value })} error={errors.contextWindow} />
          <NumberInput label={t('admin.routing.output')} {...exactNumberProps} value={state.maxOutputTokens} onChange={(value) => set({ maxOutputTokens: value })} error={errors.maxOutputTokens} />
          <NumberInput label={t('admin.routing.images')} {...exactNumberProps} value={state.maxImages} onChange={(value) => set({ maxImages: value })} error={errors.maxImages} />
          <NumberInput label={t('admin.routing.prompt')} {...exactNumberProps} value={state.maxPromptChars} onChange={(value) => set({ maxPromptChars: value })} error={errors.maxPromptChars} />
        </SimpleGrid>
        <TagsInput label={t('admin.routing.sizes')} description={t('admin.routing.sizesHint')} value={state.imageSizes} onChange={(value) => set({ imageSizes: value })} error={errors.imageSizes} />
        <Textarea
          label={t('admin.routing.capabilities')}
          description={t('admin.routing.capabilitiesHint')}
          autosize
          minRows={2}
          value={state.capabilities}
          onChange={(event) => set({ capabilities: event.currentTarget.value })}
          error={errors.capabilities}
        />
      </Stack>
    </Fieldset>
  );
}
