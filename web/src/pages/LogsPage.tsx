// Usage logs: filters (range, key, model, outcome), newest first, cursor pages, a detail drawer, CSV export.
import { useState } from 'react';
import { Badge, Button, Drawer, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { csvExportUrl, fetchLog, fetchLogs, type LogFilters, type LogRow } from '../api/logs-api.ts';
import { keysApi, listGroups } from '../api/keys-api.ts';
import { IconListSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState.tsx';
import { FirstCallSnippet } from '../components/FirstCallSnippet.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { LogReceipt } from '../components/LogReceipt.tsx';
import { formatCount, formatDateTime, formatUsd } from '../components/format.ts';
import { CardTable } from '../components/CardTable.tsx';

const RANGES: Record<string, number | null> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, all: null };

export default function LogsPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState('24h');
  const [key, setKey] = useState<string | null>(null);
  const [model, setModel] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [openId, setOpenId] = useState<number | null>(null);
  const span = RANGES[range] ?? null;
  // The range is fixed when the filters change, so pages stay stable while new calls are logged.
  const [anchor, setAnchor] = useState(() => Date.now());
  const filters: LogFilters = {
    from: span === null ? null : anchor - span,
    to: null,
    key,
    model: model.trim() || null,
    outcome: outcome === 'success' || outcome === 'error' ? outcome : null,
  };
  const cursor = cursors[cursors.length - 1] ?? null;
  const logs = useQuery({ queryKey: ['logs', filters, cursor], queryFn: () => fetchLogs(filters, cursor) });
  const keys = useQuery({ queryKey: ['keys'], queryFn: keysApi.list });
  const restart = () => {
    setCursors([null]);
    setAnchor(Date.now());
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('logs.title')}</Title>
        <Button component="a" href={csvExportUrl(filters)} variant="default" download>
          {t('logs.exportCsv')}
        </Button>
      </Group>
      <Group wrap="wrap" align="flex-end">
        <Select
          label={t('logs.range')}
          value={range}
          allowDeselect={false}
          onChange={(value) => {
            setRange(value ?? '24h');
            restart();
          }}
          data={[
            { value: '1h', label: t('logs.lastHour') },
            { value: '24h', label: t('logs.last24h') },
            { value: '7d', label: t('logs.last7d') },
            { value: '30d', label: t('logs.last30d') },
            { value: 'all', label: t('logs.everything') },
          ]}
          w={170}
        />
        <Select
          label={t('logs.key')}
          placeholder={t('logs.allKeys')}
          clearable
          value={key}
          onChange={(value) => {
            setKey(value);
            restart();
          }}
          data={(keys.data ?? []).map((item) => ({ value: String(item.id), label: item.name }))}
          w={200}
        />
        <TextInput
          label={t('logs.model')}
          placeholder={t('logs.anyModel')}
          value={model}
          onChange={(event) => {
            setModel(event.currentTarget.value);
            restart();
          }}
          w={200}
        />
        <Select
          label={t('logs.outcome')}
          placeholder={t('logs.anyOutcome')}
          clearable
          value={outcome}
          onChange={(value) => {
            setOutcome(value);
            restart();
          }}
          data={[
            { value: 'success', label: t('logs.succeeded') },
            { value: 'error', label: t('logs.failed') },
          ]}
          w={170}
        />
        <Button variant="default" onClick={restart}>
          {t('logs.refresh')}
        </Button>
      </Group>
      {logs.isError ? <ErrorNotice error={logs.error} /> : null}
      <CardTable minWidth={820}>
        <Table striped highlightOnHover aria-label={t('logs.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('logs.time')}</Table.Th>
              <Table.Th>{t('logs.key')}</Table.Th>
              <Table.Th>{t('logs.model')}</Table.Th>
              <Table.Th>{t('logs.outcome')}</Table.Th>
              <Table.Th>{t('logs.tokens')}</Table.Th>
              <Table.Th>{t('logs.cost')}</Table.Th>
              <Table.Th>{t('logs.duration')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('logs.details')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(logs.data?.rows ?? []).map((row) => (
              <LogLine key={row.id} row={row} onOpen={() => setOpenId(row.id)} />
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      {logs.data && logs.data.rows.length === 0 ? <NoCalls /> : null}
      <Group justify="flex-end">
        <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t('logs.newer')}
        </Button>
        <Button variant="default" disabled={!logs.data?.nextCursor} onClick={() => logs.data?.nextCursor && setCursors([...cursors, logs.data.nextCursor])}>
          {t('logs.older')}
        </Button>
      </Group>
      <Drawer opened={openId !== null} onClose={() => setOpenId(null)} position="right" title={t('logs.callDetails')} size="lg">
        {openId !== null ? <LogDetail id={openId} /> : null}
      </Drawer>
    </Stack>
  );
}

function LogLine({ row, onOpen }: { row: LogRow; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td>{formatDateTime(row.created_at)}</Table.Td>
      <Table.Td>{row.key_name ?? ''}</Table.Td>
      <Table.Td>{row.model}</Table.Td>
      <Table.Td>
        <Badge color={row.outcome === 'success' ? 'green' : 'red.9'} variant="filled">
          {row.outcome === 'success' ? t('logs.ok') : t('logs.failedStatus', { status: row.status }).trim()}
        </Badge>
      </Table.Td>
      <Table.Td>
        {formatCount(row.input_tokens)} / {formatCount(row.output_tokens)}
      </Table.Td>
      <Table.Td>{formatUsd(row.cost_usd)}</Table.Td>
      <Table.Td>{t('receipt.ms', { ms: formatCount(Math.round(row.latency_ms)) })}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="subtle" onClick={onOpen} aria-label={t('logs.detailsOf', { time: formatDateTime(row.created_at) })}>
          {t('logs.details')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function LogDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useQuery({ queryKey: ['log', id], queryFn: () => fetchLog(id) });
  if (detail.isError) return <ErrorNotice error={detail.error} />;
  if (!detail.data) return <Text>{t('common.loading')}</Text>;
  return <LogReceipt detail={detail.data} />;
}

const EVERYTHING: LogFilters = { from: null, to: null, key: null, model: null, outcome: null };

/** No call under these filters: either none at all (how to make the first one) or none that matches. */
function NoCalls() {
  const { t } = useTranslation();
  const any = useQuery({ queryKey: ['logs', 'any'], queryFn: () => fetchLogs(EVERYTHING, null) });
  const groups = useQuery({ queryKey: ['groups'], queryFn: listGroups });
  if (!any.data) return null;
  if (any.data.rows.length > 0) return <Text c="dimmed">{t('empty.noMatch')}</Text>;
  const model = groups.data?.flatMap((group) => group.models)[0] ?? 'MODEL';
  return (
    <EmptyState
      icon={IconListSearch}
      title={t('empty.noLogsTitle')}
      testId="no-logs"
      action={
        <Group justify="center">
          <Button component={Link} to="/keys" variant="light">
            {t('empty.createKey')}
          </Button>
          <Button component={Link} to="/playground" variant="default">
            {t('empty.tryPlayground')}
          </Button>
        </Group>
      }
    >
      <Text maw={560}>{t('empty.noLogsBody')}</Text>
      <FirstCallSnippet model={model} />
    </EmptyState>
  );
}
