// The groups users may pick for their own keys (besides default), as the admin API's self_service_groups.
import { useEffect, useState } from 'react';
import { Button, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { runAdminAction } from './admin-actions.ts';
import { useTranslation } from 'react-i18next';

export function SelfServiceGroups({ current }: { current: string[] | undefined }) {
  const queryClient = useQueryClient();
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: adminApi.groups });
  const [chosen, setChosen] = useState<string[]>([]);
  const { t } = useTranslation();
  useEffect(() => {
    if (current) setChosen(current);
  }, [current]);
  return (
    <Stack>
      <Title order={2} size="h4">
        {t('admin.selfService.title')}
      </Title>
      <Text size="sm">{t('admin.selfService.intro')}</Text>
      <MultiSelect label={t('admin.selfService.label')} data={[...new Set([...(groups.data ?? []).map((group) => group.name), ...chosen])]} value={chosen} onChange={setChosen} searchable clearable />
      <Button
        w="fit-content"
        onClick={() => void runAdminAction(() => adminApi.putSelfServiceGroups(chosen), t('admin.selfService.saved'), () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] }))}
      >
        {t('admin.selfService.save')}
      </Button>
    </Stack>
  );
}
