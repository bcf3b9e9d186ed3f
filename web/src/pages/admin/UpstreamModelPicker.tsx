// Fetches the model list of a saved channel's upstream and lets the admin tick the ones to add to the
// channel's models (those it serves already are marked and left as they are).
import { useState } from 'react';
import { Button, Checkbox, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { adminOpsApi, type UpstreamModels } from '../../api/admin-ops-api.ts';
import { upstreamErrorText } from './ChannelTestResult.tsx';
import { errorText } from '../../i18n/error-text.ts';
import { useTranslation } from 'react-i18next';

export function UpstreamModelPicker({ channelId, current, onAdd }: { channelId: number; current: readonly string[]; onAdd: (models: string[]) => void }) {
  const [list, setList] = useState<UpstreamModels | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const { t } = useTranslation();
  const fetchList = async () => {
    setLoading(true);
    setProblem(null);
    try {
      setList(await adminOpsApi.upstreamModels(channelId));
      setPicked([]);
    } catch (error) {
      setProblem(errorText(error));
    }
    setLoading(false);
  };
  const have = new Set(current);
  const offered = list?.available ? list.models.filter((model) => !have.has(model.id) && model.id.toLowerCase().includes(search.trim().toLowerCase())) : [];
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button size="xs" variant="light" loading={loading} onClick={() => void fetchList()}>
          {t('admin.picker.fetch')}
        </Button>
        {list?.available ? (
          <Text size="xs" c="dimmed">
            {t('admin.picker.offered', { offered: list.models.length, have: list.models.filter((model) => have.has(model.id)).length })}
          </Text>
        ) : null}
      </Group>
      {problem ? (
        <Text size="sm" c="red.9" role="alert">
          {problem}
        </Text>
      ) : null}
      {list && !list.available ? (
        <Text size="sm" c="red.9" role="alert">
          {t('admin.picker.notAvailable')}
          {list.status !== null ? ` (HTTP ${list.status})` : ''}: <span lang="en">{upstreamErrorText(list.reason)}</span>
        </Text>
      ) : null}
      {list?.available ? (
        <>
          <TextInput size="xs" placeholder={t('admin.picker.filter')} aria-label={t('admin.picker.filterLabel')} value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
          <ScrollArea.Autosize mah={200} type="auto">
            <Checkbox.Group value={picked} onChange={setPicked} aria-label={t('admin.picker.toAdd')}>
              <Stack gap={4}>
                {offered.map((model) => (
                  <Checkbox key={model.id} value={model.id} label={model.id} size="xs" />
                ))}
              </Stack>
            </Checkbox.Group>
            {offered.length === 0 ? (
              <Text size="xs" c="dimmed">
                {t('admin.picker.nothing')}
              </Text>
            ) : null}
          </ScrollArea.Autosize>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setPicked(offered.map((model) => model.id))} disabled={offered.length === 0}>
              {t('admin.picker.selectAll')}
            </Button>
            <Button
              size="xs"
              disabled={picked.length === 0}
              onClick={() => {
                onAdd(picked);
                setPicked([]);
              }}
            >
              {t('admin.picker.add', { count: picked.length })}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
