// The audit log: who changed what, with the values before and after, and when.
import { Code, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime } from '../../components/format.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

const short = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value).slice(0, 300));

export default function AdminAudit() {
  const audit = useQuery({ queryKey: ['admin', 'audit'], queryFn: adminApi.audit });
  const { t } = useTranslation();
  if (audit.isError) return <ErrorNotice error={audit.error} />;
  return (
    <CardTable minWidth={900}>
      <Table striped aria-label={t('admin.tabs.audit')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.audit.when')}</Table.Th>
            <Table.Th>{t('admin.audit.who')}</Table.Th>
            <Table.Th>{t('admin.audit.what')}</Table.Th>
            <Table.Th>{t('admin.audit.target')}</Table.Th>
            <Table.Th>{t('admin.audit.before')}</Table.Th>
            <Table.Th>{t('admin.audit.after')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(audit.data ?? []).map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{formatDateTime(entry.at)}</Table.Td>
              <Table.Td data-user-content>{entry.actor}</Table.Td>
              <Table.Td>
                <Code>{entry.action}</Code>
              </Table.Td>
              <Table.Td>
                <Code>{entry.target}</Code>
              </Table.Td>
              <Table.Td>
                <Code>{short(entry.before)}</Code>
              </Table.Td>
              <Table.Td>
                <Code>{short(entry.after)}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </CardTable>
  );
}
