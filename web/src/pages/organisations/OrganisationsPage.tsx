// The organisations I belong to, with my role, and a form to create one (I become its owner).
import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { organisationsApi } from '../../api/organisations-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { formatUsd } from '../../components/format.ts';

export default function OrganisationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const list = useQuery({ queryKey: ['orgs'], queryFn: organisationsApi.list });
  const create = useMutation({
    mutationFn: () => organisationsApi.create(name.trim()),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['orgs'] });
      notifications.show({ color: 'green', message: t('orgs.created', { name: created.name }) });
      navigate(`/orgs/${created.id}`);
    },
  });
  if (list.isError) return <ErrorNotice error={list.error} />;
  return (
    <Stack>
      <Title order={1}>{t('orgs.title')}</Title>
      <Text c="dimmed">{t('orgs.intro')}</Text>
      <Paper withBorder p="md">
        <form onSubmit={(event) => { event.preventDefault(); if (name.trim()) create.mutate(); }}>
          <Group align="end">
            <TextInput label={t('orgs.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={100} style={{ flex: 1 }}
              error={create.error instanceof Error ? create.error.message : undefined} />
            <Button type="submit" loading={create.isPending}>{t('orgs.create')}</Button>
          </Group>
        </form>
      </Paper>
      {list.data && list.data.length === 0 ? <Text>{t('orgs.none')}</Text> : null}
      {list.data && list.data.length > 0 ? (
        <CardTable minWidth={480}>
          <Table striped aria-label={t('orgs.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orgs.name')}</Table.Th>
                <Table.Th>{t('orgs.myRole')}</Table.Th>
                <Table.Th>{t('orgs.balance')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((org) => (
                <Table.Tr key={org.id}>
                  <Table.Td><Anchor component={Link} to={`/orgs/${org.id}`}>{org.name}</Anchor></Table.Td>
                  <Table.Td><Badge variant="light">{t(`orgs.roles.${org.role}`)}</Badge></Table.Td>
                  <Table.Td>{org.balance_usd === null ? '—' : formatUsd(org.balance_usd)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </CardTable>
      ) : null}
    </Stack>
  );
}
