// MCP servers (issue 32): the upstream tool servers /mcp fronts. Add one (its credential header is
// write-only), test it (the gateway connects with the credential and lists the tools), enable or disable
// it, and choose the groups that see it.
import { useState } from 'react';
import { Badge, Button, Group, Modal, NumberInput, PasswordInput, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { adminApi, type AdminMcpServer, type McpServerTestOutcome } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { ConfirmDialog, type PendingConfirmation } from '../../components/ConfirmDialog.tsx';
import { formatUsd } from '../../components/format.ts';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';
import { useTranslation } from 'react-i18next';

interface McpServerDraft {
  name: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  headerName: string;
  headerValue: string;
  groups: string;
  price: number | string;
  rpmLimit: number | string;
  allowPrivate: boolean;
}

/** As the server takes a price per call: never negative, at most $1,000,000,000, exact to a micro-dollar. */
const PRICE_RULE = { optional: true, min: 0, max: 1_000_000_000, decimals: 6, format: usdBound };

const EMPTY: McpServerDraft = { name: '', url: '', transport: 'streamable-http', headerName: 'Authorization', headerValue: '', groups: 'default', price: '', rpmLimit: '', allowPrivate: false };

function McpServerForm({ editing, onDone }: { editing: AdminMcpServer | 'new'; onDone: () => void }) {
  const existing = editing === 'new' ? null : editing;
  const [draft, setDraft] = useState<McpServerDraft>(existing ? { ...EMPTY, name: existing.name, url: existing.url, transport: existing.transport, groups: existing.groups.join(', '), price: existing.price_per_call || '', rpmLimit: existing.rpm_limit ?? '', allowPrivate: existing.allow_private_network, headerName: (existing.credential.kind === 'headers' ? existing.credential.header_names[0] : undefined) ?? 'Authorization' } : EMPTY);
  const set = <K extends keyof McpServerDraft>(field: K, value: McpServerDraft[K]) => setDraft((previous) => ({ ...previous, [field]: value }));
  const { t } = useTranslation();
  const [priceError, setPriceError] = useState<string | null>(null);
  const save = async () => {
    const problem = numberProblem(draft.price, PRICE_RULE);
    setPriceError(problem);
    if (problem !== null) return;
    const body: Record<string, unknown> = {
      url: draft.url.trim(),
      transport: draft.transport,
      groups: splitList(draft.groups),
      price_per_call: draft.price === '' ? 0 : Number(draft.price),
      allow_private_network: draft.allowPrivate,
      // Empty: no limit (an edit clears a limit set before; a new server simply has none).
      ...(draft.rpmLimit !== '' ? { rpm_limit: Number(draft.rpmLimit) } : existing?.rpm_limit ? { rpm_limit: null } : {}),
      // Write-only: a value typed replaces the credential; left empty, the stored one stays.
      ...(draft.headerValue ? { headers: { [draft.headerName.trim() || 'Authorization']: draft.headerValue } } : {}),
    };
    const saved = await runAdminAction(() => (existing ? adminApi.updateMcpServer(existing.id, body) : adminApi.createMcpServer({ name: draft.name.trim(), ...body })), existing ? t('admin.mcp.savedNamed', { name: existing.name }) : t('admin.addedNamed', { name: draft.name }), onDone);
    if (saved) onDone();
  };
  return (
    <Stack>
      <TextInput label={t('admin.users.name')} description={t('admin.mcp.nameHint')} required disabled={existing !== null} value={draft.name} onChange={(event) => set('name', event.currentTarget.value)} />
      <TextInput label="URL" description={t('admin.mcp.urlHint')} required value={draft.url} onChange={(event) => set('url', event.currentTarget.value)} />
      <Select label={t('admin.mcp.transport')} data={[{ value: 'streamable-http', label: 'Streamable HTTP' }, { value: 'sse', label: t('admin.mcp.sse') }]} allowDeselect={false} value={draft.transport} onChange={(value) => value && set('transport', value as McpServerDraft['transport'])} />
      <Group grow>
        <TextInput label={t('admin.mcp.header')} value={draft.headerName} onChange={(event) => set('headerName', event.currentTarget.value)} />
        <PasswordInput label={t('admin.mcp.value')} description={existing?.credential.kind === 'headers' ? t('admin.mcp.valueSet') : t('admin.mcp.valueOptional')} value={draft.headerValue} onChange={(event) => set('headerValue', event.currentTarget.value)} />
      </Group>
      <TextInput label={t('admin.channels.groups')} description={t('admin.mcp.groupsHint')} value={draft.groups} onChange={(event) => set('groups', event.currentTarget.value)} />
      <NumberInput label={t('admin.mcp.priceUsd')} description={t('admin.mcp.priceHint')} {...exactNumberProps} prefix="$" value={draft.price} onChange={(value) => set('price', value)} error={priceError} />
      <NumberInput label={t('admin.mcp.rpm')} description={t('admin.mcp.rpmHint')} min={1} allowDecimal={false} value={draft.rpmLimit} onChange={(value) => set('rpmLimit', value)} />
      <Switch label={t('admin.mcp.private')} checked={draft.allowPrivate} onChange={(event) => set('allowPrivate', event.currentTarget.checked)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('keys.cancel')}
        </Button>
        <Button onClick={() => void save()}>{existing ? t('keys.save') : t('admin.mcp.addServer')}</Button>
      </Group>
    </Stack>
  );
}

function TestResult({ outcome }: { outcome: McpServerTestOutcome | undefined }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  return outcome.ok ? (
    <Text size="xs" c="green.9" role="status">
      {t('admin.mcp.connected', { ms: outcome.latency_ms, tools: outcome.tools.map((tool) => tool.name).join(', ') || t('admin.overview.none') })}
    </Text>
  ) : (
    <Text size="xs" c="red.9" role="status" lang="en">
      {outcome.error}
    </Text>
  );
}

export default function AdminMcpServers() {
  const { list: servers, refresh, editing, setEditing } = useAdminCollection<AdminMcpServer>('mcp-servers', adminApi.mcpServers);
  const [tests, setTests] = useState<Record<number, McpServerTestOutcome>>({});
  const [testing, setTesting] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const { t } = useTranslation();
  // Deleting a server takes its tools from every key at once: asked first, as every deletion is.
  const askDelete = (server: AdminMcpServer) =>
    setConfirming({
      title: t('admin.mcp.deleteTitle', { name: server.name }),
      body: t('admin.mcp.deleteBody'),
      confirmLabel: t('admin.mcp.delete'),
      run: () => runAdminAction(() => adminApi.deleteMcpServer(server.id), t('admin.deletedNamed', { name: server.name }), refresh),
    });
  const test = async (server: AdminMcpServer) => {
    setTesting(server.id);
    await runAdminAction(async () => {
      const outcome = await adminApi.testMcpServer(server.id);
      setTests((previous) => ({ ...previous, [server.id]: outcome }));
    }, null, refresh);
    setTesting(null);
  };
  return (
    <Stack>
      <Text size="sm">
        {t('admin.mcp.introBefore')}
        <code>{window.location.origin}/mcp</code>
        {t('admin.mcp.introAfter')}
      </Text>
      <AdminToolbar addLabel={t('admin.mcp.add')} onAdd={() => setEditing('new')} error={servers.isError ? servers.error : null} />
      <CardTable minWidth={760}>
        <Table striped aria-label={t('admin.tabs.mcp')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.users.name')}</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>{t('wallet.status')}</Table.Th>
              <Table.Th>{t('admin.channels.groups')}</Table.Th>
              <Table.Th>{t('admin.mcp.price')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(servers.data ?? []).map((server) => (
              <Table.Tr key={server.id}>
                <Table.Td fw={500} data-user-content>
                  {server.name}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" maw={280} style={{ overflowWrap: 'anywhere' }}>
                    {server.url} ({server.transport === 'sse' ? 'SSE' : <span lang="en">Streamable HTTP</span>})
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={server.enabled ? 'green' : 'red.9'}>{server.enabled ? t('admin.channelStatus.enabled') : t('admin.channelStatus.disabled')}</Badge>
                  <TestResult outcome={tests[server.id]} />
                </Table.Td>
                <Table.Td data-user-content>{server.groups.join(', ')}</Table.Td>
                <Table.Td>
                  {server.price_per_call > 0 ? formatUsd(server.price_per_call) : t('admin.mcp.free')}
                  {server.rpm_limit !== null ? ` · ${t('admin.mcp.atMostPerMinute', { count: server.rpm_limit })}` : ''}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="light" loading={testing === server.id} aria-label={t('admin.channels.testNamed', { name: server.name })} onClick={() => void test(server)}>
                      {t('admin.channels.test')}
                    </Button>
                    <Button size="xs" variant="default" aria-label={t(server.enabled ? 'admin.mcp.disableNamed' : 'admin.mcp.enableNamed', { name: server.name })} onClick={() => void runAdminAction(() => adminApi.updateMcpServer(server.id, { enabled: !server.enabled }), t(server.enabled ? 'admin.mcp.disabledNamed' : 'admin.mcp.enabledNamed', { name: server.name }), refresh)}>
                      {server.enabled ? t('keys.disable') : t('keys.enable')}
                    </Button>
                    <Button size="xs" variant="default" aria-label={t('keys.editTitle', { name: server.name })} onClick={() => setEditing(server)}>
                      {t('keys.edit')}
                    </Button>
                    <Button size="xs" color="red" variant="light" aria-label={t('admin.deleteNamed', { name: server.name })} onClick={() => askDelete(server)}>
                      {t('keys.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('admin.mcp.add') : t('admin.mcp.edit')} size="lg">
        {editing !== null ? <McpServerForm editing={editing} onDone={() => { setEditing(null); void refresh(); }} /> : null}
      </Modal>
    </Stack>
  );
}
