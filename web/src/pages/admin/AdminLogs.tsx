// Every user's calls, newest first: whose call (name and e-mail), which key, model and channel, filters
// (user, key, model, channel, outcome, status, error code, time range), pages, a detail drawer with the
// charge's calculation, and the CSV of everything the filters match.
import { useState, type FormEvent } from 'react';
import { Badge, Button, Code, Drawer, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { adminOpsApi, type AdminLogFilters, type AdminLogRow } from '../../api/admin-ops-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ChargeCalculation, isChargeCalculation } from '../../components/ChargeCalculation.tsx';
import { formatCount, formatDateTime, formatUsd } from '../../components/format.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

/** The ranges; each one's label is admin.logs.ranges.<key>. */
const RANGES: Record<string, { ms: number | null }> = {
  '1h': { ms: 3_600_000 },
  '24h': { ms: 86_400_000 },
  '7d': { ms: 7 * 86_400_000 },
  '30d': { ms: 30 * 86_400_000 },
  'all': { ms: null },
  'custom': { ms: null },
};

interface Draft {
  range: string;
  from: string;
  to: string;
  user: string;
  keyId: string;
  model: string;
  channelId: string | null;
  outcome: string | null;
  status: string;
  errorCode: string;
}

const EMPTY: Draft = { range: '24h', from: '', to: '', user: '', keyId: '', model: '', channelId: null, outcome: null, status: '', errorCode: '' };

/** The filters the API gets, from what the form holds; the range is fixed at the moment they are applied. */
function toFilters(draft: Draft, now: number): AdminLogFilters {
  const span = RANGES[draft.range]?.ms ?? null;
  const local = (text: string) => (text ? new Date(text).getTime() : null);
  const custom = draft.range === 'custom';
  return {
    from: custom ? local(draft.from) : span === null ? null : now - span,
    to: custom ? local(draft.to) : null,
    user: draft.user.trim() || null,
    keyId: draft.keyId.trim() || null,
    model: draft.model.trim() || null,
    channelId: draft.channelId,
    outcome: draft.outcome === 'success' || draft.outcome === 'error' ? draft.outcome : null,
    status: draft.status.trim() || null,
    errorCode: draft.errorCode.trim() || null,
  };
}

export default function AdminLogs() {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [filters, setFilters] = useState<AdminLogFilters>(() => toFilters(EMPTY, Date.now()));
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [openId, setOpenId] = useState<number | null>(null);
  const { t } = useTranslation();
  const cursor = cursors[cursors.length - 1] ?? null;
  const logs = useQuery({ queryKey: ['admin', 'logs', filters, cursor], queryFn: () => adminOpsApi.logs(filters, cursor) });
  const channels = useQuery({ queryKey: ['admin', 'channels'], queryFn: adminApi.channels });
  const change = (patch: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...patch }));
  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    setFilters(toFilters(draft, Date.now()));
    setCursors([null]);
  };
  const clear = () => {
    setDraft(EMPTY);
    setFilters(toFilters(EMPTY, Date.now()));
    setCursors([null]);
  };

  return (
    <Stack>
      <form onSubmit={apply} aria-label={t('admin.logs.filters')}>
        <Group wrap="wrap" align="flex-end" gap="sm">
          <Select label={t('logs.range')} value={draft.range} allowDeselect={false} onChange={(value) => change({ range: value ?? '24h' })} data={Object.keys(RANGES).map((value) => ({ value, label: t(`admin.logs.ranges.${value}`) }))} w={170} />
          {draft.range === 'custom' ? (
            <>
              <TextInput label={t('admin.logs.from')} type="datetime-local" value={draft.from} onChange={(event) => change({ from: event.currentTarget.value })} w={210} />
              <TextInput label={t('admin.logs.to')} type="datetime-local" value={draft.to} onChange={(event) => change({ to: event.currentTarget.value })} w={210} />
            </>
          ) : null}
          <TextInput label={t('admin.logs.userEmail')} placeholder={t('admin.logs.anyone')} value={draft.user} onChange={(event) => change({ user: event.currentTarget.value })} w={220} />
          <TextInput label={t('admin.logs.keyId')} placeholder={t('admin.logs.anyKey')} inputMode="numeric" value={draft.keyId} onChange={(event) => change({ keyId: event.currentTarget.value })} w={110} />
          <TextInput label={t('logs.model')} placeholder={t('logs.anyModel')} value={draft.model} onChange={(event) => change({ model: event.currentTarget.value })} w={180} />
          <Select
            label={t('admin.overview.channel')}
            placeholder={t('admin.logs.anyChannel')}
            clearable
            value={draft.channelId}
            onChange={(value) => change({ channelId: value })}
            data={(channels.data ?? []).map((channel) => ({ value: String(channel.id), label: channel.name }))}
            w={180}
          />
          <Select
            label={t('logs.outcome')}
            placeholder={t('logs.anyOutcome')}
            clearable
            value={draft.outcome}
            onChange={(value) => change({ outcome: value })}
            data={[
              { value: 'success', label: t('logs.succeeded') },
              { value: 'error', label: t('logs.failed') },
            ]}
            w={150}
          />
          <TextInput label={t('wallet.status')} placeholder={t('admin.logs.statusExample')} inputMode="numeric" value={draft.status} onChange={(event) => change({ status: event.currentTarget.value })} w={100} />
          <TextInput label={t('admin.logs.errorCode')} placeholder={t('admin.logs.errorCodeExample')} value={draft.errorCode} onChange={(event) => change({ errorCode: event.currentTarget.value })} w={250} />
          <Button type="submit">{t('admin.logs.apply')}</Button>
          <Button variant="default" onClick={clear}>
            {t('admin.logs.clear')}
          </Button>
          <Button component="a" href={adminOpsApi.logsCsvUrl(filters)} variant="default" download>
            {t('logs.exportCsv')}
          </Button>
        </Group>
      </form>
      {logs.isError ? <ErrorNotice error={logs.error} /> : null}
      <CardTable minWidth={980}>
        <Table striped highlightOnHover aria-label={t('admin.logs.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('logs.time')}</Table.Th>
              <Table.Th>{t('admin.payments.user')}</Table.Th>
              <Table.Th>{t('logs.key')}</Table.Th>
              <Table.Th>{t('logs.model')}</Table.Th>
              <Table.Th>{t('admin.overview.channel')}</Table.Th>
              <Table.Th>{t('logs.outcome')}</Table.Th>
              <Table.Th>{t('logs.tokens')}</Table.Th>
              <Table.Th>{t('logs.cost')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('logs.details')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(logs.data?.data ?? []).map((row) => (
              <LogLine key={row.id} row={row} onOpen={() => setOpenId(row.id)} />
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      {logs.data && logs.data.data.length === 0 ? <Text c="dimmed">{t('empty.noMatch')}</Text> : null}
      <Group justify="flex-end">
        <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t('logs.newer')}
        </Button>
        <Button variant="default" disabled={!logs.data?.next_cursor} onClick={() => logs.data?.next_cursor && setCursors([...cursors, logs.data.next_cursor])}>
          {t('logs.older')}
        </Button>
      </Group>
      <Drawer opened={openId !== null} onClose={() => setOpenId(null)} position="right" title={t('logs.callDetails')} size="lg">
        {openId !== null ? <LogDetail id={openId} /> : null}
      </Drawer>
    </Stack>
  );
}

function LogLine({ row, onOpen }: { row: AdminLogRow; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td>{formatDateTime(row.created_at)}</Table.Td>
      {/* One block per cell, so that on a phone's card the e-mail stays beside its label, under the name. */}
      <Table.Td>
        <div>
          <Text size="sm" fw={500} data-user-content={row.user_name === null ? undefined : ''}>
            {row.user_name ?? (row.user_id === null ? '—' : t('admin.deletedUser', { id: row.user_id }))}
          </Text>
          {row.user_email ? (
            <Text size="xs" c="dimmed">
              {row.user_email}
            </Text>
          ) : null}
        </div>
      </Table.Td>
      <Table.Td data-user-content>{row.key_name ?? '—'}</Table.Td>
      <Table.Td>{row.model}</Table.Td>
      <Table.Td data-user-content>{row.channel ?? '—'}</Table.Td>
      <Table.Td>
        <div>
          <Badge color={row.outcome === 'success' ? 'green' : 'red.9'} variant="filled">
            {row.outcome === 'success' ? t('logs.ok') : t('logs.failedStatus', { status: row.status })}
          </Badge>
          {row.error_code ? (
            <Text size="xs" c="dimmed">
              {row.error_code}
            </Text>
          ) : null}
        </div>
      </Table.Td>
      <Table.Td>
        {formatCount(row.input_tokens)} / {formatCount(row.output_tokens)}
      </Table.Td>
      <Table.Td>{formatUsd(row.cost_usd)}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="subtle" onClick={onOpen} aria-label={t('admin.logs.detailsOf', { id: row.id })}>
          {t('logs.details')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function LogDetail({ id }: { id: number }) {
  const detail = useQuery({ queryKey: ['admin', 'log', id], queryFn: () => adminOpsApi.log(id) });
  const { t } = useTranslation();
  if (detail.isError) return <ErrorNotice error={detail.error} />;
  if (!detail.data) return <Text>{t('common.loading')}</Text>;
  const { calculation, ...fields } = detail.data;
  return (
    <Stack>
      {isChargeCalculation(calculation) ? <ChargeCalculation calculation={calculation} /> : null}
      <Table aria-label={t('logs.callDetails')}>
        <Table.Tbody>
          {Object.entries(fields).map(([field, value]) => (
            <Table.Tr key={field}>
              <Table.Th>
                <Code>{field}</Code>
              </Table.Th>
              <Table.Td style={{ wordBreak: 'break-word' }} data-user-content>
                {typeof value === 'object' && value !== null ? <Code block>{JSON.stringify(value, null, 2)}</Code> : String(value ?? '—')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
