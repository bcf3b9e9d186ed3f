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

const RANGES: Record<string, { label: string; ms: number | null }> = {
  '1h': { label: 'Last hour', ms: 3_600_000 },
  '24h': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
  '30d': { label: 'Last 30 days', ms: 30 * 86_400_000 },
  'all': { label: 'Everything', ms: null },
  'custom': { label: 'From … to …', ms: null },
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
      <form onSubmit={apply} aria-label="Log filters">
        <Group wrap="wrap" align="flex-end" gap="sm">
          <Select label="Range" value={draft.range} allowDeselect={false} onChange={(value) => change({ range: value ?? '24h' })} data={Object.entries(RANGES).map(([value, item]) => ({ value, label: item.label }))} w={170} />
          {draft.range === 'custom' ? (
            <>
              <TextInput label="From" type="datetime-local" value={draft.from} onChange={(event) => change({ from: event.currentTarget.value })} w={210} />
              <TextInput label="To" type="datetime-local" value={draft.to} onChange={(event) => change({ to: event.currentTarget.value })} w={210} />
            </>
          ) : null}
          <TextInput label="User e-mail" placeholder="Anyone" value={draft.user} onChange={(event) => change({ user: event.currentTarget.value })} w={220} />
          <TextInput label="Key id" placeholder="Any key" inputMode="numeric" value={draft.keyId} onChange={(event) => change({ keyId: event.currentTarget.value })} w={110} />
          <TextInput label="Model" placeholder="Any model" value={draft.model} onChange={(event) => change({ model: event.currentTarget.value })} w={180} />
          <Select
            label="Channel"
            placeholder="Any channel"
            clearable
            value={draft.channelId}
            onChange={(value) => change({ channelId: value })}
            data={(channels.data ?? []).map((channel) => ({ value: String(channel.id), label: channel.name }))}
            w={180}
          />
          <Select
            label="Outcome"
            placeholder="Any outcome"
            clearable
            value={draft.outcome}
            onChange={(value) => change({ outcome: value })}
            data={[
              { value: 'success', label: 'Succeeded' },
              { value: 'error', label: 'Failed' },
            ]}
            w={150}
          />
          <TextInput label="Status" placeholder="e.g. 429" inputMode="numeric" value={draft.status} onChange={(event) => change({ status: event.currentTarget.value })} w={100} />
          <TextInput label="Error code" placeholder="e.g. GW_ERR_UPSTREAM_TIMEOUT" value={draft.errorCode} onChange={(event) => change({ errorCode: event.currentTarget.value })} w={250} />
          <Button type="submit">Apply filters</Button>
          <Button variant="default" onClick={clear}>
            Clear
          </Button>
          <Button component="a" href={adminOpsApi.logsCsvUrl(filters)} variant="default" download>
            Export CSV
          </Button>
        </Group>
      </form>
      {logs.isError ? <ErrorNotice error={logs.error} /> : null}
      <Table.ScrollContainer minWidth={980}>
        <Table striped highlightOnHover aria-label="All calls">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>User</Table.Th>
              <Table.Th>Key</Table.Th>
              <Table.Th>Model</Table.Th>
              <Table.Th>Channel</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th>Tokens in / out</Table.Th>
              <Table.Th>Cost</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Details</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(logs.data?.data ?? []).map((row) => (
              <LogLine key={row.id} row={row} onOpen={() => setOpenId(row.id)} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {logs.data && logs.data.data.length === 0 ? <Text c="dimmed">No calls match these filters.</Text> : null}
      <Group justify="flex-end">
        <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </Button>
        <Button variant="default" disabled={!logs.data?.next_cursor} onClick={() => logs.data?.next_cursor && setCursors([...cursors, logs.data.next_cursor])}>
          Older
        </Button>
      </Group>
      <Drawer opened={openId !== null} onClose={() => setOpenId(null)} position="right" title="Call details" size="lg">
        {openId !== null ? <LogDetail id={openId} /> : null}
      </Drawer>
    </Stack>
  );
}

function LogLine({ row, onOpen }: { row: AdminLogRow; onOpen: () => void }) {
  return (
    <Table.Tr>
      <Table.Td>{formatDateTime(row.created_at)}</Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {row.user_name ?? (row.user_id === null ? '—' : `user ${row.user_id} (deleted)`)}
        </Text>
        {row.user_email ? (
          <Text size="xs" c="dimmed">
            {row.user_email}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{row.key_name ?? '—'}</Table.Td>
      <Table.Td>{row.model}</Table.Td>
      <Table.Td>{row.channel ?? '—'}</Table.Td>
      <Table.Td>
        <Badge color={row.outcome === 'success' ? 'green' : 'red.9'} variant="filled">
          {row.outcome === 'success' ? 'OK' : `Failed ${row.status}`}
        </Badge>
        {row.error_code ? (
          <Text size="xs" c="dimmed">
            {row.error_code}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        {formatCount(row.input_tokens)} / {formatCount(row.output_tokens)}
      </Table.Td>
      <Table.Td>{formatUsd(row.cost_usd)}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="subtle" onClick={onOpen} aria-label={`Details of call ${row.id}`}>
          Details
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function LogDetail({ id }: { id: number }) {
  const detail = useQuery({ queryKey: ['admin', 'log', id], queryFn: () => adminOpsApi.log(id) });
  if (detail.isError) return <ErrorNotice error={detail.error} />;
  if (!detail.data) return <Text>Loading…</Text>;
  const { calculation, ...fields } = detail.data;
  return (
    <Stack>
      {isChargeCalculation(calculation) ? <ChargeCalculation calculation={calculation} /> : null}
      <Table aria-label="Call details">
        <Table.Tbody>
          {Object.entries(fields).map(([field, value]) => (
            <Table.Tr key={field}>
              <Table.Th>{field.replaceAll('_', ' ')}</Table.Th>
              <Table.Td style={{ wordBreak: 'break-word' }}>{typeof value === 'object' && value !== null ? <Code block>{JSON.stringify(value, null, 2)}</Code> : String(value ?? '—')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
