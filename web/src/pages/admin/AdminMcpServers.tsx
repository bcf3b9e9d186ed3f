// MCP servers (issue 32): the upstream tool servers /mcp fronts. Add one (its credential header is
// write-only), test it (the gateway connects with the credential and lists the tools), enable or disable
// it, and choose the groups that see it.
import { useState } from 'react';
import { Badge, Button, Group, Modal, NumberInput, PasswordInput, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { adminApi, type AdminMcpServer, type McpServerTestOutcome } from '../../api/admin-api.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';

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

const EMPTY: McpServerDraft = { name: '', url: '', transport: 'streamable-http', headerName: 'Authorization', headerValue: '', groups: 'default', price: '', rpmLimit: '', allowPrivate: false };

function McpServerForm({ editing, onDone }: { editing: AdminMcpServer | 'new'; onDone: () => void }) {
  const existing = editing === 'new' ? null : editing;
  const [draft, setDraft] = useState<McpServerDraft>(existing ? { ...EMPTY, name: existing.name, url: existing.url, transport: existing.transport, groups: existing.groups.join(', '), price: existing.price_per_call || '', rpmLimit: existing.rpm_limit ?? '', allowPrivate: existing.allow_private_network, headerName: existing.credential.header_names?.[0] ?? 'Authorization' } : EMPTY);
  const set = <K extends keyof McpServerDraft>(field: K, value: McpServerDraft[K]) => setDraft((previous) => ({ ...previous, [field]: value }));
  const save = async () => {
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
    const saved = await runAdminAction(() => (existing ? adminApi.updateMcpServer(existing.id, body) : adminApi.createMcpServer({ name: draft.name.trim(), ...body })), existing ? `${existing.name} saved.` : `${draft.name} added.`, onDone);
    if (saved) onDone();
  };
  return (
    <Stack>
      <TextInput label="Name" description="Lower-case letters, digits and hyphens; tools appear as name__tool." required disabled={existing !== null} value={draft.name} onChange={(event) => set('name', event.currentTarget.value)} />
      <TextInput label="URL" description="The server's MCP endpoint, e.g. https://tools.example.com/mcp (or …/sse)." required value={draft.url} onChange={(event) => set('url', event.currentTarget.value)} />
      <Select label="Transport" data={[{ value: 'streamable-http', label: 'Streamable HTTP' }, { value: 'sse', label: 'HTTP + SSE (older servers)' }]} allowDeselect={false} value={draft.transport} onChange={(value) => value && set('transport', value as McpServerDraft['transport'])} />
      <Group grow>
        <TextInput label="Credential header" value={draft.headerName} onChange={(event) => set('headerName', event.currentTarget.value)} />
        <PasswordInput label="Credential value" description={existing?.credential.kind === 'headers' ? 'Set; type a new value to replace it.' : 'Optional; never shown again.'} value={draft.headerValue} onChange={(event) => set('headerValue', event.currentTarget.value)} />
      </Group>
      <TextInput label="Groups" description="Comma-separated: the groups whose keys see this server." value={draft.groups} onChange={(event) => set('groups', event.currentTarget.value)} />
      <NumberInput label="Price per call (USD)" description="Charged to the caller's wallet for each tool call. Empty: free." min={0} decimalScale={6} prefix="$" value={draft.price} onChange={(value) => set('price', value)} />
      <NumberInput label="Calls per minute" description="Tool calls a minute this server takes through the gateway, over every key. Empty: no limit." min={1} allowDecimal={false} value={draft.rpmLimit} onChange={(value) => set('rpmLimit', value)} />
      <Switch label="Allow a private-network address" checked={draft.allowPrivate} onChange={(event) => set('allowPrivate', event.currentTarget.checked)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>Cancel</Button>
        <Button onClick={() => void save()}>{existing ? 'Save' : 'Add server'}</Button>
      </Group>
    </Stack>
  );
}

function TestResult({ outcome }: { outcome: McpServerTestOutcome | undefined }) {
  if (!outcome) return null;
  return outcome.ok ? (
    <Text size="xs" c="green.9" role="status">
      Connected in {outcome.latency_ms} ms; tools: {outcome.tools.map((tool) => tool.name).join(', ') || 'none'}
    </Text>
  ) : (
    <Text size="xs" c="red.9" role="status">
      {outcome.error}
    </Text>
  );
}

export default function AdminMcpServers() {
  const { list: servers, refresh, editing, setEditing } = useAdminCollection<AdminMcpServer>('mcp-servers', adminApi.mcpServers);
  const [tests, setTests] = useState<Record<number, McpServerTestOutcome>>({});
  const [testing, setTesting] = useState<number | null>(null);
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
      <Text size="sm">Users reach these servers' tools at <code>{window.location.origin}/mcp</code> with their own key, as their group and key allow.</Text>
      <AdminToolbar addLabel="Add MCP server" onAdd={() => setEditing('new')} error={servers.isError ? servers.error : null} />
      <Table.ScrollContainer minWidth={760}>
        <Table striped aria-label="MCP servers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Groups</Table.Th>
              <Table.Th>Price per call</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(servers.data ?? []).map((server) => (
              <Table.Tr key={server.id}>
                <Table.Td fw={500}>{server.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" maw={280} style={{ overflowWrap: 'anywhere' }}>
                    {server.url} ({server.transport === 'sse' ? 'SSE' : 'Streamable HTTP'})
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={server.enabled ? 'green' : 'red.9'}>{server.enabled ? 'Enabled' : 'Disabled'}</Badge>
                  <TestResult outcome={tests[server.id]} />
                </Table.Td>
                <Table.Td>{server.groups.join(', ')}</Table.Td>
                <Table.Td>
                  {server.price_per_call > 0 ? `$${server.price_per_call}` : 'free'}
                  {server.rpm_limit !== null ? ` · at most ${server.rpm_limit}/min` : ''}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="light" loading={testing === server.id} aria-label={`Test ${server.name}`} onClick={() => void test(server)}>
                      Test
                    </Button>
                    <Button size="xs" variant="default" aria-label={`${server.enabled ? 'Disable' : 'Enable'} ${server.name}`} onClick={() => void runAdminAction(() => adminApi.updateMcpServer(server.id, { enabled: !server.enabled }), `${server.name} ${server.enabled ? 'disabled' : 'enabled'}.`, refresh)}>
                      {server.enabled ? 'Disable' : 'Enable'}
                    </Button>
                    <Button size="xs" variant="default" aria-label={`Edit ${server.name}`} onClick={() => setEditing(server)}>
                      Edit
                    </Button>
                    <Button size="xs" color="red" variant="light" aria-label={`Delete ${server.name}`} onClick={() => void runAdminAction(() => adminApi.deleteMcpServer(server.id), `${server.name} deleted.`, refresh)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add MCP server' : 'Edit MCP server'} size="lg">
        {editing !== null ? <McpServerForm editing={editing} onDone={() => { setEditing(null); void refresh(); }} /> : null}
      </Modal>
    </Stack>
  );
}
