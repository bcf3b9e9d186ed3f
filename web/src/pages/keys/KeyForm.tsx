// The fields of a key: used by "Create key" and by "Edit". Every restriction is optional.
import { Button, Group, NumberInput, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ApiKey, GroupChoice, KeyChanges } from '../../api/keys-api.ts';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';

interface KeyFormValues {
  name: string;
  group: string;
  models: string[];
  mcp_tools: string[];
  quota_usd: number | string;
  expires_on: string;
  ip_allowlist: string[];
}

export function keyFormValues(key?: ApiKey): KeyFormValues {
  return {
    name: key?.name ?? '',
    group: key?.group ?? 'default',
    models: key?.models ?? [],
    mcp_tools: key?.mcp_tools ?? [],
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
    mcp_tools: values.mcp_tools.length > 0 ? values.mcp_tools : null,
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
  const { t } = useTranslation();
  const form = useForm<KeyFormValues>({
    initialValues: props.initial,
    validate: {
      name: (value) => (value.trim() ? (value.trim().length > 100 ? t('keyForm.nameTooLong') : null) : t('keyForm.nameRequired')),
      quota_usd: (value) => (value === '' ? null : Number(value) > 0 ? numberProblem(value, { max: 1_000_000_000, decimals: 6, format: usdBound }) : t('keyForm.quotaPositive')),
      expires_on: (value) => (!value || new Date(`${value}T23:59:59Z`).getTime() > Date.now() ? null : t('keyForm.futureDay')),
      ip_allowlist: (value) => {
        const wrong = value.find((entry) => !IP_OR_CIDR.test(entry.trim()));
        return wrong ? t('keyForm.notIp', { value: wrong }) : null;
      },
    },
  });
  const group = props.groups.find((candidate) => candidate.name === form.values.group);
  return (
    <form onSubmit={form.onSubmit((values) => props.onSubmit(values, form))} noValidate>
      <Stack>
        <TextInput label={t('keyForm.name')} data-autofocus required {...form.getInputProps('name')} />
        <Select
          label={t('keyForm.group')}
          description={t('keyForm.groupHint')}
          data={props.groups.map((choice) => ({ value: choice.name, label: choice.description ? `${choice.name} — ${choice.description}` : choice.name }))}
          allowDeselect={false}
          {...form.getInputProps('group')}
        />
        <TagsInput
          label={t('keyForm.models')}
          description={t('keyForm.modelsHint')}
          data={group?.models ?? []}
          clearable
          {...form.getInputProps('models')}
        />
        <TagsInput
          label={t('keyForm.mcpTools')}
          description={t('keyForm.mcpToolsHint')}
          clearable
          {...form.getInputProps('mcp_tools')}
        />
        <NumberInput label={t('keyForm.quota')} description={t('keyForm.quotaHint')} {...exactNumberProps} prefix="$" {...form.getInputProps('quota_usd')} />
        <TextInput label={t('keyForm.expiresOn')} type="date" description={t('keyForm.expiresHint')} {...form.getInputProps('expires_on')} />
        <TagsInput
          label={t('keyForm.ipAllowlist')}
          description={t('keyForm.ipHint')}
          clearable
          {...form.getInputProps('ip_allowlist')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('keys.cancel')}
          </Button>
          <Button type="submit" loading={props.busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
