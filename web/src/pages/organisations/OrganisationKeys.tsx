// The organisation's keys: the ones I hold (every member's for owners and admins), created here and charged
// to the shared wallet. A new key's secret is shown once.
import { useState } from 'react';
import { Alert, Badge, Button, Code, Group, Paper, Stack, Table, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { organisationsApi, type Organisation } from '../../api/organisations-api.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { formatUsd } from '../../components/format.ts';

export function OrganisationKeys({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const keys = useQuery({ queryKey: ['org-keys', organisation.id], queryFn: () => organisationsApi.keys(organisation.id) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['org-keys', organisation.id] });
  const create = useMutation({
    mutationFn: () => organisationsApi.createKey(organisation.id, name.trim()),
    onSuccess: (created) => { setSecret(created.key); setName(''); return refresh(); },
  });
  const remove = useMutation({ mutationFn: (keyId: number) => organisationsApi.deleteKey(organisation.id, keyId), onSuccess: refresh });
  return (
    <Stack>
      <Paper withBorder p="md">
        <form onSubmit={(event) => { event.preventDefault(); if (name.trim()) create.mutate(); }}>
          <Group align="end">
            <TextInput label={t('orgs.keys.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={128} style={{ flex: 1 }}
              error={create.error instanceof Error ? create.error.message : undefined} />
            <Button type="submit" loading={create.isPending}>{t('orgs.keys.create')}</Button>
          </Group>
        </form>
        {secret ? (
          <Alert color="green" mt="md" title={t('orgs.keys.secretTitle')}>
            <Code block data-testid="org-key-secret">{secret}</Code>
          </Alert>
        ) : null}
      </Paper>
      <CardTable minWidth={640}>
        <Table striped aria-label={t('orgs.tabs.keys')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orgs.keys.name')}</Table.Th>
              <Table.Th>{t('orgs.keys.holder')}</Table.Th>
              <Table.Th>{t('orgs.keys.prefix')}</Table.Th>
              <Table.Th>{t('orgs.keys.spent')}</Table.Th>
              <Table.Th><span className="visually-hidden">{t('orgs.members.actions')}</span></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(keys.data ?? []).map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>{key.name} {key.enabled ? null : <Badge color="gray">{t('orgs.keys.disabled')}</Badge>}</Table.Td>
                <Table.Td>{key.member_name ?? '—'}</Table.Td>
                <Table.Td><Code>{key.prefix}</Code></Table.Td>
                <Table.Td>{formatUsd(key.spent_usd)}</Table.Td>
                <Table.Td><Button size="xs" variant="default" color="red" onClick={() => remove.mutate(key.id)}>{t('orgs.keys.delete')}</Button></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
    </Stack>
  );
}
