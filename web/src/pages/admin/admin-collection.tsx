// What the admin list pages (channels, groups, models) share: the list's query, a refresh after a change,
// the row being edited (or 'new'), and the toolbar with the add button and the load error.
import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

export function useAdminCollection<Row>(name: string, load: () => Promise<Row[]>) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['admin', name], queryFn: load });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', name] });
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  return { list, refresh, editing, setEditing };
}

export function AdminToolbar({ addLabel, onAdd, error }: { addLabel: string; onAdd: () => void; error: unknown }) {
  return (
    <>
      <Group justify="flex-end">
        <Button onClick={onAdd}>{addLabel}</Button>
      </Group>
      {error ? <ErrorNotice error={error} /> : null}
    </>
  );
}
