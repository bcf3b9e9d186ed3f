// The fields of a key as an administrator sets them (the config file's key: group, models, quota, expiry,
// IP allowlist, rate limits), for any user's key. Checked as the server checks them, never rewritten; an
// empty restriction is none.
import { useState } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import type { AdminKeyFields, AdminKeyRow } from '../../api/admin-ops-api.ts';
import { exactNumberProps, numberProblems, usdBound } from '../../components/number-rules.ts';
import { useTranslation } from 'react-i18next';

const IP_OR_CIDR = /^(\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/;
const RATE = { optional: true, integer: true, min: 1, max: 2_147_483_647 };
const RULES = { quota: { optional: true, min: 0, max: 1_000_000_000, decimals: 6, format: usdBound }, rpm: RATE, tpm: RATE };

const parseList = (json: string | null): string[] => (json ? (JSON.parse(json) as string[]) : []);

export function AdminKeyForm({ existing, onSubmit, onCancel, submitLabel }: { existing: AdminKeyRow | null; onSubmit: (fields: AdminKeyFields & { user: string; name: string }) => Promise<unknown>; onCancel: () => void; submitLabel: string }) {
  const users = useQuery({ queryKey: ['admin', 'users', ''], queryFn: () => adminApi.users(''), enabled: existing === null });
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: adminApi.groups });
  const { t } = useTranslation();
  const [user, setUser] = useState<string | null>(existing?.user ?? null);
  const [name, setName] = useState(existing?.name ?? '');
  const [group, setGroup] = useState(existing?.group_name ?? 'default');
  const [models, setModels] = useState<string[]>(parseList(existing?.models_json ?? null));
  const [quota, setQuota] = useState<number | string>(existing?.quota_micros === null || existing === null ? '' : existing.quota_micros / 1_000_000);
  const [expires, setExpires] = useState(existing?.expires_at ? new Date(existing.expires_at).toISOString().slice(0, 10) : '');
  const [allowlist, setAllowlist] = useState<string[]>(parseList(existing?.ip_allowlist_json ?? null));
  const [rpm, setRpm] = useState<number | string>(existing?.rpm_limit ?? '');
  const [tpm, setTpm] = useState<number | string>(existing?.tpm_limit ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async () => {
    const problems: Record<string, string> = { ...numberProblems({ quota, rpm, tpm }, RULES) };
    if (!existing && !user) problems.user = t('admin.keyForm.chooseUser');
    if (!name.trim()) problems.name = t('keyForm.nameRequired');
    const wrong = allowlist.find((entry) => !IP_OR_CIDR.test(entry.trim()));
    if (wrong) problems.allowlist = t('keyForm.notIp', { value: wrong });
    if (expires && new Date(`${expires}T23:59:59Z`).getTime() <= Date.now()) problems.expires = t('keyForm.futureDay');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const number = (value: number | string) => (String(value).trim() === '' ? null : Number(value));
    await onSubmit({
      user: user ?? '',
      name: name.trim(),
      group,
      models: models.length > 0 ? models : null,
      quota_usd: number(quota),
      expires_at: expires ? new Date(`${expires}T23:59:59Z`).toISOString() : null,
      ip_allowlist: allowlist.length > 0 ? allowlist : null,
      rpm_limit: number(rpm),
      tpm_limit: number(tpm),
    });
  };

  return (
    <Stack>
      {existing ? null : (
        <Select
          label={t('admin.payments.user')}
          placeholder={t('admin.keyForm.whose')}
          searchable
          data={(users.data ?? []).map((candidate) => ({ value: candidate.name, label: candidate.email ? `${candidate.name} (${candidate.email})` : candidate.name }))}
          value={user}
          onChange={setUser}
          error={errors.user}
        />
      )}
      <TextInput label={t('admin.keyForm.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} disabled={existing !== null} error={errors.name} />
      <Select label={t('keys.group')} data={(groups.data ?? []).map((candidate) => candidate.name)} value={group} onChange={(value) => setGroup(value ?? 'default')} allowDeselect={false} />
      <TagsInput label={t('keyForm.models')} description={t('admin.keyForm.modelsHint')} value={models} onChange={setModels} clearable />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        <NumberInput label={t('keyForm.quota')} description={t('admin.noLimit')} {...exactNumberProps} value={quota} onChange={setQuota} error={errors.quota} />
        <TextInput label={t('keyForm.expiresOn')} type="date" description={t('keyForm.expiresHint')} value={expires} onChange={(event) => setExpires(event.currentTarget.value)} error={errors.expires} />
        <NumberInput label={t('admin.limits.rpm')} description={t('admin.noLimit')} {...exactNumberProps} value={rpm} onChange={setRpm} error={errors.rpm} />
        <NumberInput label={t('admin.limits.tpm')} description={t('admin.noLimit')} {...exactNumberProps} value={tpm} onChange={setTpm} error={errors.tpm} />
      </SimpleGrid>
      <TagsInput label={t('keyForm.ipAllowlist')} description={t('admin.keyForm.ipHint')} value={allowlist} onChange={setAllowlist} clearable error={errors.allowlist} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('keys.cancel')}
        </Button>
        <Button onClick={() => void submit()}>{submitLabel}</Button>
      </Group>
    </Stack>
  );
}
