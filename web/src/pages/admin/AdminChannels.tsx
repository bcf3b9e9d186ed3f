// Channels: status and the reason a channel was disabled, a test button (and one for all channels), the
// upstream's balance, create, edit every field (the upstream key is write-only: never shown, replaced when a
// new one is typed; the model list can be fetched from the upstream) and delete.
import { useState } from 'react';
import { Badge, Button, Group, Menu, Modal, MultiSelect, NumberInput, PasswordInput, Select, Stack, Switch, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminApi, type AdminChannel, type ChannelTestOutcome, type ChannelTypeView } from '../../api/admin-api.ts';
import { announceChannelTest, ChannelTestResult } from './ChannelTestResult.tsx';
import { exactNumberProps, numberProblems } from '../../components/number-rules.ts';
import { AdminToolbar, useAdminCollection } from './admin-collection.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';
import { initialSettings, ProviderSettingsFields, settingsBody } from './ProviderSettingsFields.tsx';
import { http2Body, httpVersionOf, UpstreamHttpVersionField } from './UpstreamHttpVersionField.tsx';
import { ResponsesWebSocketField, responsesWebSocketBody, responsesWebSocketOf } from './ResponsesWebSocketField.tsx';
import { ChannelBalanceCell } from './ChannelBalance.tsx';
import { UpstreamModelPicker } from './UpstreamModelPicker.tsx';
import { TestAllChannels } from './TestAllChannels.tsx';
import { advancedChannelBody, advancedChannelProblems, advancedChannelState, ChannelAdvancedFields } from './ChannelAdvancedFields.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

/** Endpoints a channel may declare its upstream lacks (the gateway then routes or translates around it). */
const ENDPOINTS = ['responses', 'completions', 'embeddings', 'images-generations', 'images-edits', 'audio-speech', 'audio-transcriptions', 'realtime', 'count-tokens'];

export default function AdminChannels() {
  const { list: channels, refresh, editing, setEditing } = useAdminCollection<AdminChannel>('channels', adminApi.channels);
  const [deleting, setDeleting] = useState<AdminChannel | null>(null);
  const [tests, setTests] = useState<Record<number, ChannelTestOutcome>>({});
  const [testing, setTesting] = useState<number | null>(null);
  const { t } = useTranslation();
  // Only a channel the gateway disabled itself is turned back on by a passing test; one an administrator
  // disabled stays disabled (the test just reports).
  const test = async (channel: AdminChannel) => {
    setTesting(channel.id);
    const ran = await runAdminAction(async () => {
      const outcome = await adminApi.testChannel(channel.id, channel.status === 'auto_disabled');
      setTests((previous) => ({ ...previous, [channel.id]: outcome }));
      announceChannelTest(outcome);
    }, null, refresh);
    if (!ran) setTests((previous) => Object.fromEntries(Object.entries(previous).filter(([id]) => Number(id) !== channel.id)));
    setTesting(null);
  };
  return (
    <Stack>
      <AdminToolbar addLabel={t('admin.channels.create')} onAdd={() => setEditing('new')} error={channels.isError ? channels.error : null} />
      <Group gap="sm">
        <TestAllChannels
          onResults={(results) => {
            setTests((previous) => ({ ...previous, ...results }));
            return refresh();
          }}
        />
      </Group>
      <CardTable minWidth={980}>
        <Table striped aria-label={t('admin.channels.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.users.name')}</Table.Th>
              <Table.Th>{t('admin.channels.type')}</Table.Th>
              <Table.Th>{t('wallet.status')}</Table.Th>
              <Table.Th>{t('keyForm.models')}</Table.Th>
              <Table.Th>{t('admin.channels.groups')}</Table.Th>
              <Table.Th>{t('admin.channels.priorityWeight')}</Table.Th>
              <Table.Th>{t('overview.balance')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(channels.data ?? []).map((channel) => (
              <Table.Tr key={channel.id}>
                <Table.Td fw={500} data-user-content>
                  {channel.name}
                </Table.Td>
                <Table.Td>{channel.type}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={channel.enabled ? 'green' : 'red.9'}>
                    {t(`admin.channelStatus.${channel.enabled ? 'enabled' : channel.status === 'auto_disabled' ? 'auto_disabled' : 'disabled'}`)}
                  </Badge>
                  {channel.status_reason ? (
                    <Text size="xs" c="dimmed" maw={260} lang="en">
                      {channel.status_reason}
                    </Text>
                  ) : null}
                  <ChannelTestResult outcome={tests[channel.id]} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2} maw={260}>
                    {channel.models.join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td data-user-content>{channel.groups.join(', ')}</Table.Td>
                <Table.Td>
                  {channel.priority} / {channel.weight}
                </Table.Td>
                <Table.Td>
                  <ChannelBalanceCell channelId={channel.id} channelName={channel.name} />
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Button size="xs" variant="light" loading={testing === channel.id} aria-label={t('admin.channels.testNamed', { name: channel.name })} onClick={() => void test(channel)}>
                      {t('admin.channels.test')}
                    </Button>
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <Button size="xs" variant="default" aria-label={t('keys.actionsFor', { name: channel.name })}>
                          {t('admin.channels.more')}
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item onClick={() => setEditing(channel)}>{t('keys.edit')}</Menu.Item>
                        <Menu.Item onClick={() => void runAdminAction(() => adminApi.updateChannel(channel.id, { enabled: !channel.enabled }), t('admin.channels.updated'), refresh)}>
                          {channel.enabled ? t('keys.disable') : t('keys.enable')}
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => setDeleting(channel)}>
                          {t('keys.delete')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <ChannelDialog channel={editing} onClose={() => setEditing(null)} onDone={refresh} />
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('admin.channels.deleteTitle')}>
        <Stack>
          <Text>{t('admin.channels.deleteBody', { name: deleting?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('keys.cancel')}
            </Button>
            <Button color="red" onClick={() => deleting && void runAdminAction(() => adminApi.deleteChannel(deleting.id), t('admin.channels.deleted'), refresh).then(() => setDeleting(null))}>
              {t('admin.channels.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function ChannelDialog({ channel, onClose, onDone }: { channel: AdminChannel | 'new' | null; onClose: () => void; onDone: () => unknown }) {
  const existing = channel && channel !== 'new' ? channel : null;
  const { t } = useTranslation();
  return (
    <Modal opened={channel !== null} onClose={onClose} title={existing ? t('keys.editTitle', { name: existing.name }) : t('admin.channels.create')} size="lg">
      {channel !== null ? <ChannelForm key={existing?.id ?? 'new'} existing={existing} onClose={onClose} onDone={onDone} /> : null}
    </Modal>
  );
}

function ChannelForm({ existing, onClose, onDone }: { existing: AdminChannel | null; onClose: () => void; onDone: () => unknown }) {
  // The types and their own settings come from the gateway (its providers' declarations), not from this page.
  const types = useQuery({ queryKey: ['admin', 'channel-types'], queryFn: adminApi.channelTypes });
  const { t } = useTranslation();
  return types.data ? <ChannelFields types={types.data} existing={existing} onClose={onClose} onDone={onDone} /> : types.isError ? <Text c="red">{t('admin.channels.typesFailed')}</Text> : null;
}

function ChannelFields({ types, existing, onClose, onDone }: { types: ChannelTypeView[]; existing: AdminChannel | null; onClose: () => void; onDone: () => unknown }) {
  const [name, setName] = useState(existing?.name ?? '');
  const { t } = useTranslation();
  const [type, setType] = useState(existing?.type ?? 'openai');
  const typeView = types.find((candidate) => candidate.type === type);
  const [baseUrl, setBaseUrl] = useState(existing?.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState((existing?.models ?? []).join('\n'));
  const [mapping, setMapping] = useState(existing && Object.keys(existing.model_mapping).length > 0 ? JSON.stringify(existing.model_mapping, null, 2) : '');
  const [groups, setGroups] = useState((existing?.groups ?? ['default']).join(', '));
  const [priority, setPriority] = useState<number | string>(existing?.priority ?? 0);
  const [weight, setWeight] = useState<number | string>(existing?.weight ?? 1);
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [httpVersion, setHttpVersion] = useState(() => httpVersionOf(existing?.http2));
  const [responsesWs, setResponsesWs] = useState(() => responsesWebSocketOf(existing?.responses_websocket));
  const [settings, setSettings] = useState(() => initialSettings(typeView, existing));
  const [chatFormat, setChatFormat] = useState(existing?.chat_format ?? typeView?.chat_formats[0] ?? '');
  const chooseType = (next: string) => {
    const view = types.find((candidate) => candidate.type === next);
    setType(next);
    // Another type's settings do not carry over; the stored ones come back when the stored type is chosen again.
    setSettings(initialSettings(view, next === existing?.type ? existing : null));
    setChatFormat(next === existing?.type ? existing.chat_format ?? view?.chat_formats[0] ?? '' : view?.chat_formats[0] ?? '');
  };
  const [unsupported, setUnsupported] = useState<string[]>(existing?.unsupported_endpoints ?? []);
  const [problem, setProblem] = useState<string | null>(null);
  const [advanced, setAdvanced] = useState(() => advancedChannelState(existing));
  const [advancedErrors, setAdvancedErrors] = useState<ReturnType<typeof advancedChannelProblems>>({});

  const [numberErrors, setNumberErrors] = useState<Partial<Record<'priority' | 'weight', string>>>({});
  const submit = async () => {
    const problems = numberProblems({ priority, weight }, { priority: { integer: true, min: -1_000_000, max: 1_000_000 }, weight: { integer: true, min: 0, max: 1_000_000 } });
    setNumberErrors(problems);
    const timeoutProblems = advancedChannelProblems(advanced);
    setAdvancedErrors(timeoutProblems);
    if (Object.keys(problems).length > 0 || Object.keys(timeoutProblems).length > 0) return;
    let modelMapping: Record<string, string> = {};
    try {
      modelMapping = mapping.trim() ? (JSON.parse(mapping) as Record<string, string>) : {};
    } catch {
      setProblem(t('admin.channels.mappingJson'));
      return;
    }
    const body: Record<string, unknown> = {
      name: name.trim(),
      type,
      ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}),
      models: splitList(models),
      model_mapping: modelMapping,
      groups: splitList(groups),
      priority: Number(priority),
      weight: Number(weight),
      enabled,
      ...settingsBody(typeView, settings),
      ...((typeView?.chat_formats.length ?? 0) > 1 ? { chat_format: chatFormat } : {}),
      unsupported_endpoints: unsupported,
      http2: http2Body(httpVersion),
      responses_websocket: responsesWebSocketBody(responsesWs),
      ...advancedChannelBody(advanced),
      ...(apiKey ? { api_key: apiKey } : {}),
    };
    const ok = await runAdminAction(() => (existing ? adminApi.updateChannel(existing.id, body) : adminApi.createChannel(body)), existing ? t('admin.channels.saved') : t('admin.channels.created'), onDone);
    if (ok) onClose();
  };

  return (
    <Stack>
      {problem ? <Text c="red">{problem}</Text> : null}
      <TextInput label={t('admin.users.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
      <Select label={t('admin.channels.type')} data={types.map((candidate) => candidate.type)} value={type} onChange={(value) => chooseType(value ?? type)} allowDeselect={false} />
      <TextInput label={t('admin.channels.baseUrl')} description={typeView?.needs_base_url ? <span lang="en">{typeView.needs_base_url}</span> : undefined} placeholder="https://api.openai.com" value={baseUrl} onChange={(event) => setBaseUrl(event.currentTarget.value)} />
      <ProviderSettingsFields type={typeView} values={settings} keeping={existing !== null && existing.type === type} onChange={setSettings} />
      <PasswordInput
        label={typeView?.credential?.label ? <span lang="en">{typeView.credential.label}</span> : t('admin.channels.upstreamKey')}
        description={
          <>
            {typeView?.credential?.description ? <span lang="en">{typeView.credential.description} </span> : null}
            {existing ? t('admin.channels.keyWriteOnly') : t('admin.channels.keyStored')}
          </>
        }
        value={apiKey}
        onChange={(event) => setApiKey(event.currentTarget.value)}
        autoComplete="off"
      />
      {typeView && typeView.chat_formats.length > 1 ? (
        <Select
          label={t('admin.channels.chatFormat')}
          description={t('admin.channels.chatFormatHint', { format: typeView.chat_formats[0] })}
          data={typeView.chat_formats}
          value={chatFormat}
          onChange={(value) => setChatFormat(value ?? typeView.chat_formats[0]!)}
          allowDeselect={false}
        />
      ) : null}
      <MultiSelect
        label={t('admin.channels.lacks')}
        description={t('admin.channels.lacksHint')}
        data={ENDPOINTS}
        value={unsupported}
        onChange={setUnsupported}
        clearable
      />
      <Textarea label={t('keyForm.models')} description={t('admin.channels.onePerLine')} autosize minRows={2} value={models} onChange={(event) => setModels(event.currentTarget.value)} />
      {existing ? <UpstreamModelPicker channelId={existing.id} current={splitList(models)} onAdd={(added) => setModels([...splitList(models), ...added].join('\n'))} /> : null}
      <Textarea label={t('admin.channels.mapping')} autosize minRows={2} value={mapping} onChange={(event) => setMapping(event.currentTarget.value)} />
      <TextInput label={t('admin.channels.groups')} description={t('admin.channels.commaSeparated')} value={groups} onChange={(event) => setGroups(event.currentTarget.value)} />
      <Group grow>
        <NumberInput label={t('admin.channels.priority')} description={t('admin.channels.priorityHint')} {...exactNumberProps} value={priority} onChange={setPriority} error={numberErrors.priority} />
        <NumberInput label={t('admin.channels.weight')} description={t('admin.channels.weightHint')} {...exactNumberProps} value={weight} onChange={setWeight} error={numberErrors.weight} />
      </Group>
      <UpstreamHttpVersionField value={httpVersion} onChange={setHttpVersion} />
      <ResponsesWebSocketField value={responsesWs} onChange={setResponsesWs} />
      <ChannelAdvancedFields state={advanced} onChange={setAdvanced} errors={advancedErrors} prefillWasSet={existing?.supports_prefill !== undefined} />
      <Switch label={t('admin.channelStatus.enabled')} checked={enabled} onChange={(event) => setEnabled(event.currentTarget.checked)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('keys.cancel')}
        </Button>
        <Button onClick={() => void submit()}>{existing ? t('admin.channels.save') : t('admin.channels.create')}</Button>
      </Group>
    </Stack>
  );
}
