// The fields of a key: used by "Create key" and by "Edit". Every restriction is optional.
import { Button, Group, NumberInput, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ApiKey, GroupChoice, KeyChanges } from '../../api/keys-api.ts';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';

interface KeyFormValues {
  name: string;
  group: string;
  models: string[];
  quota_usd: number | string;
  expires_on: string;
  ip_allowlist: string[];
}

export function keyFormValues(key?: ApiKey): KeyFormValues {
  return {
    name: key?.name ?? '',
    group: key?.group ?? 'default',
    models: key?.models ?? [],
    quota_usd: key?.quota_usd ?? '',
    expires_on: key?.expires_at ? key.expires_at.slice(0, 10) : '',
    ip_allowlist: key?.ip_allowlist ?? [],
  };
}

/** Form values → the API's fields; an empty restriction means "none". */
export function keyChanges(values: KeyFormValues): KeyChanges & { name: string } {
  return {
    name: values.name.trim(),
    group: values.group,
    models: values.models.length > 0 ? values.models : null,
    quota_usd: values.quota_usd === '' ? null : Number(values.quota_usd),
    // The end of the chosen day, in UTC.
    expires_at: values.expires_on ? new Date(`${values.expires_on}T23:59:59Z`).toISOString() : null,
    ip_allowlist: values.ip_allowlist.length > 0 ? values.ip_allowlist : null,
  };
}

const IP_OR_CIDR = /^(\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/;

export function KeyForm(props: {
  initial: KeyFormValues;
  groups: GroupChoice[];
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: KeyFormValues, form: { setFieldError: (field: string, message: string) => void }) => void;
  onCancel: () => void;
}) {
  const form = useForm<KeyFormValues>({
    initialValues: props.initial,
    validate: {
      name: (value) => (value.trim() ? (value.trim().length > 100 ? 'Use at most 100 characters.' : null) : 'Give the key a name.'),
      quota_usd: (value) => (value === '' ? null : Number(value) > 0 ? numberProblem(value, { max: 1_000_000_000, decimals: 6, format: usdBound }) : 'A quota must be more than $0, or empty for none.'),
      expires_on: (value) => (!value || new Date(`${value}T23:59:59Z`).getTime() > Date.now() ? null : 'Choose a day in the future.'),
      ip_allowlist: (value) => {
        const wrong = value.find((entry) => !IP_OR_CIDR.test(entry.trim()));
        return wrong ? `"${wrong}" is not an IP address or CIDR range.` : null;
      },
    },
  });
  const group = props.groups.find((candidate) => candidate.name === form.values.group);
  return (
    <form onSubmit={form.onSubmit((values) => props.onSubmit(values, form))} noValidate>
      <Stack>
        <TextInput label="Name" data-autofocus required {...form.getInputProps('name')} />
        <Select
          label="Group"
          description="The models and prices the key uses."
          data={props.groups.map((choice) => ({ value: choice.name, label: choice.description ? `${choice.name} — ${choice.description}` : choice.name }))}
          allowDeselect={false}
          {...form.getInputProps('group')}
        />
        <TagsInput
          label="Models"
          description="Only these models. Empty: every model of the group."
          data={group?.models ?? []}
          clearable
          {...form.getInputProps('models')}
        />
        <NumberInput label="Quota (USD)" description="The most this key may spend. Empty: no limit." {...exactNumberProps} prefix="$" {...form.getInputProps('quota_usd')} />
        <TextInput label="Expires on" type="date" description="Empty: never." {...form.getInputProps('expires_on')} />
        <TagsInput
          label="IP allowlist"
          description="Addresses or CIDR ranges that may use the key; press Enter after each. Empty: any."
          clearable
          {...form.getInputProps('ip_allowlist')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={props.busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
