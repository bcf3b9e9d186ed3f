// The groups users may pick for their own keys (besides default), as the admin API's self_service_groups.
import { useEffect, useState } from 'react';
import { Button, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi } from '../../api/admin-api.ts';
import { runAdminAction } from './admin-actions.ts';

export function SelfServiceGroups({ current }: { current: string[] | undefined }) {
  const queryClient = useQueryClient();
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: adminApi.groups });
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (current) setChosen(current);
  }, [current]);
  return (
    <Stack>
      <Title order={2} size="h4">
        Groups users may choose
      </Title>
      <Text size="sm">Users pick one of these for the keys they make themselves; keys an administrator makes may use any group.</Text>
      <MultiSelect label="Self-service groups" data={[...new Set([...(groups.data ?? []).map((group) => group.name), ...chosen])]} value={chosen} onChange={setChosen} searchable clearable />
      <Button
        w="fit-content"
        onClick={() => void runAdminAction(() => adminApi.putSelfServiceGroups(chosen), 'Self-service groups saved.', () => queryClient.invalidateQueries({ queryKey: ['admin', 'settings'] }))}
      >
        Save groups
      </Button>
    </Stack>
  );
}
