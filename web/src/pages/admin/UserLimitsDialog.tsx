// A user's own rate limits (requests and tokens per minute over all their keys), as the config file's
// rpm_limit / tpm_limit: whole numbers from 1, or empty for none. Checked as the server checks them.
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { adminApi, type AdminUser } from '../../api/admin-api.ts';
import { exactNumberProps, numberProblems } from '../../components/number-rules.ts';
import { runAdminAction } from './admin-actions.ts';
import { useTranslation } from 'react-i18next';

const RULE = { optional: true, integer: true, min: 1, max: 2_147_483_647 };

export function UserLimitsDialog({ user, onClose, onDone }: { user: AdminUser | null; onClose: () => void; onDone: () => unknown }) {
  const { t } = useTranslation();
  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? t('admin.limits.title', { who: user.email ?? user.name }) : ''}>
      {user ? <LimitsForm key={user.id} user={user} onClose={onClose} onDone={onDone} /> : null}
    </Modal>
  );
}

function LimitsForm({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: () => unknown }) {
  const [rpm, setRpm] = useState<number | string>(user.rpm_limit ?? '');
  const [tpm, setTpm] = useState<number | string>(user.tpm_limit ?? '');
  const [errors, setErrors] = useState<Partial<Record<'rpm' | 'tpm', string>>>({});
  const { t } = useTranslation();
  const save = async () => {
    const problems = numberProblems({ rpm, tpm }, { rpm: RULE, tpm: RULE });
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const limit = (value: number | string) => (String(value).trim() === '' ? null : Number(value));
    if (await runAdminAction(() => adminApi.updateUser(user.id, { rpm_limit: limit(rpm), tpm_limit: limit(tpm) }), t('admin.limits.saved'), onDone)) onClose();
  };
  return (
    <Stack>
      <Text size="sm">{t('admin.limits.intro')}</Text>
      <NumberInput label={t('admin.limits.rpm')} {...exactNumberProps} value={rpm} onChange={setRpm} error={errors.rpm} />
      <NumberInput label={t('admin.limits.tpm')} {...exactNumberProps} value={tpm} onChange={setTpm} error={errors.tpm} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('keys.cancel')}
        </Button>
        <Button onClick={() => void save()}>{t('admin.limits.save')}</Button>
      </Group>
    </Stack>
  );
}
