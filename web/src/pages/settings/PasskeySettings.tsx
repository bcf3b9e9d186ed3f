// My passkeys: add one (named), rename, remove. Adding asks the browser's authenticator; a passkey signs
// in without a password and without the two-factor code (it verified its user with a PIN or biometric).
import { useState } from 'react';
import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { CardTable } from '../../components/CardTable.tsx';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { addPasskey } from '../../api/passkeys.ts';
import { formatDateTime } from '../../components/format.ts';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';

export function PasskeySettings() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const { t } = useTranslation();
  const passkeys = useQuery({ queryKey: ['passkeys'], queryFn: () => api.get<ApiAnswer<'/api/me/passkeys', 'get'>>('/api/me/passkeys') });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['passkeys'] });
  const add = useMutation({
    mutationFn: (label: string) => addPasskey(label),
    onSuccess: (created) => {
      setName('');
      notifications.show({ color: 'green', message: t('settings.passkeyAdded', { name: created.name }) });
      return refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete<ApiAnswer<'/api/me/passkeys/{id}', 'delete'>>(`/api/me/passkeys/${id}`),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('settings.passkeyRemoved') });
      return refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  const rename = useMutation({
    mutationFn: ({ id, label }: { id: number; label: string }) => api.patch<ApiAnswer<'/api/me/passkeys/{id}', 'patch'>>(`/api/me/passkeys/${id}`, { name: label }),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const label = name.trim();
    if (!label) {
      setNameError(t('settings.passkeyNameRequired'));
      return;
    }
    setNameError(null);
    add.mutate(label);
  };
  return (
    <Stack component="section" aria-labelledby="passkeys-heading">
      <Title order={3} size="h4" id="passkeys-heading">
        {t('settings.passkeys')}
      </Title>
      <Text size="sm">{t('settings.passkeysIntro')}</Text>
      {passkeys.isError ? <Text c="red">{errorText(passkeys.error)}</Text> : null}
      {(passkeys.data?.data.length ?? 0) > 0 ? (
        <CardTable minWidth={480}>
          <Table striped aria-label={t('settings.yourPasskeys')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.name')}</Table.Th>
                <Table.Th>{t('settings.added')}</Table.Th>
                <Table.Th>{t('settings.lastUsed')}</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">{t('settings.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.data!.data.map((passkey) => (
                <Table.Tr key={passkey.id}>
                  <Table.Td data-user-content>{passkey.name}</Table.Td>
                  <Table.Td>{formatDateTime(passkey.created_at)}</Table.Td>
                  <Table.Td>{passkey.last_used_at ? formatDateTime(passkey.last_used_at) : t('keys.never')}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={t('settings.renameNamed', { name: passkey.name })} onClick={() => {
                        const label = window.prompt(t('settings.passkeyNewName'), passkey.name)?.trim();
                        if (label) rename.mutate({ id: passkey.id, label });
                      }}>
                        {t('settings.rename')}
                      </Button>
                      <Button size="xs" variant="light" color="red" aria-label={t('settings.removeNamed', { name: passkey.name })} loading={remove.isPending && remove.variables === passkey.id} onClick={() => remove.mutate(passkey.id)}>
                        {t('settings.remove')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </CardTable>
      ) : (
        <Text size="sm" c="dimmed">
          {t('settings.noPasskeys')}
        </Text>
      )}
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" maw={480}>
          <TextInput label={t('settings.passkeyName')} placeholder={t('settings.passkeyPlaceholder')} maxLength={64} value={name} error={nameError} onChange={(event) => setName(event.currentTarget.value)} style={{ flex: 1 }} />
          <Button type="submit" loading={add.isPending}>
            {t('settings.addPasskey')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
