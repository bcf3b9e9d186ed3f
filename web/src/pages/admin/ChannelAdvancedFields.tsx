// A channel's settings beyond routing, as the config file holds them: whether the upstream continues an
// assistant prefill (for mid-stream continuation) and the four timeouts. Checked as the server checks them
// (whole milliseconds, at most an hour), never rewritten; an empty timeout is the gateway's default.
import { Fieldset, NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import { exactNumberProps, numberProblems, type NumberRule } from '../../components/number-rules.ts';
import { useTranslation } from 'react-i18next';

/** The timeouts; each one's label is admin.advanced.<field>. */
const TIMEOUT_FIELDS = [{ field: 'connect_ms' }, { field: 'headers_ms' }, { field: 'first_token_ms' }, { field: 'idle_ms' }] as const;
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
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('admin.advanced.legend')}>
      <Stack gap="xs">
        <Select
          label={t('admin.advanced.prefill')}
          description={t('admin.advanced.prefillHint')}
          data={[
            { value: 'default', label: t('admin.advanced.typeDefault'), disabled: prefillWasSet },
            { value: 'yes', label: t('admin.yes') },
            { value: 'no', label: t('admin.no') },
          ]}
          value={state.prefill}
          onChange={(value) => onChange({ ...state, prefill: value === 'yes' || value === 'no' ? value : 'default' })}
          allowDeselect={false}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          {TIMEOUT_FIELDS.map(({ field }) => (
            <NumberInput
              key={field}
              label={t(`admin.advanced.${field}`)}
              description={t('admin.gatewayDefault')}
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
