// A channel's settings beyond routing, as the config file holds them: whether the upstream continues an
// assistant prefill (for mid-stream continuation) and the four timeouts. Checked as the server checks them
// (whole milliseconds, at most an hour), never rewritten; an empty timeout is the gateway's default.
import { Fieldset, NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import { exactNumberProps, numberProblems, type NumberRule } from '../../components/number-rules.ts';

const TIMEOUT_FIELDS = [
  { field: 'connect_ms', label: 'Connect timeout (ms)' },
  { field: 'headers_ms', label: 'Headers timeout (ms)' },
  { field: 'first_token_ms', label: 'First token timeout (ms)' },
  { field: 'idle_ms', label: 'Idle timeout between chunks (ms)' },
] as const;
type TimeoutField = (typeof TIMEOUT_FIELDS)[number]['field'];

interface AdvancedChannelState {
  prefill: 'default' | 'yes' | 'no';
  timeouts: Record<TimeoutField, number | string>;
}

const TIMEOUT_RULE: NumberRule = { optional: true, integer: true, min: 1, max: 3_600_000 };

export function advancedChannelState(channel: { supports_prefill?: boolean; timeouts?: Partial<Record<TimeoutField, number>> } | null): AdvancedChannelState {
  return {
    prefill: channel?.supports_prefill === undefined ? 'default' : channel.supports_prefill ? 'yes' : 'no',
    timeouts: Object.fromEntries(TIMEOUT_FIELDS.map(({ field }) => [field, channel?.timeouts?.[field] ?? ''])) as Record<TimeoutField, number | string>,
  };
}

export function advancedChannelProblems(state: AdvancedChannelState): Partial<Record<TimeoutField, string>> {
  return numberProblems(state.timeouts, Object.fromEntries(TIMEOUT_FIELDS.map(({ field }) => [field, TIMEOUT_RULE])) as Record<TimeoutField, NumberRule>);
}

/** The body's fields: the timeouts object whole (an empty one clears them all), the prefill only when chosen. */
export function advancedChannelBody(state: AdvancedChannelState): Record<string, unknown> {
  const timeouts = Object.fromEntries(Object.entries(state.timeouts).filter(([, value]) => String(value).trim() !== '').map(([field, value]) => [field, Number(value)]));
  return { timeouts, ...(state.prefill === 'default' ? {} : { supports_prefill: state.prefill === 'yes' }) };
}

export function ChannelAdvancedFields({ state, onChange, errors, prefillWasSet }: { state: AdvancedChannelState; onChange: (state: AdvancedChannelState) => void; errors: Partial<Record<TimeoutField, string>>; prefillWasSet: boolean }) {
  return (
    <Fieldset legend="Continuation and timeouts">
      <Stack gap="xs">
        <Select
          label="Continues an assistant prefill"
          description="Whether a stream cut elsewhere may be continued on this channel (Anthropic and vLLM do)."
          data={[
            { value: 'default', label: "The type's default", disabled: prefillWasSet },
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
          value={state.prefill}
          onChange={(value) => onChange({ ...state, prefill: value === 'yes' || value === 'no' ? value : 'default' })}
          allowDeselect={false}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          {TIMEOUT_FIELDS.map(({ field, label }) => (
            <NumberInput
              key={field}
              label={label}
              description="Empty: the gateway's default."
              {...exactNumberProps}
              value={state.timeouts[field]}
              onChange={(value) => onChange({ ...state, timeouts: { ...state.timeouts, [field]: value } })}
              error={errors[field]}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}
