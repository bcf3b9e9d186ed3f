// My passkeys: add one (named), rename, remove. Adding asks the browser's authenticator; a passkey signs
// in without a password and without the two-factor code (it verified its user with a PIN or biometric).
import { useState } from 'react';
import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { addPasskey, type Passkey } from '../../api/passkeys.ts';
import { formatDateTime } from '../../components/format.ts';

export function PasskeySettings() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const passkeys = useQuery({ queryKey: ['passkeys'], queryFn: () => api.get<{ data: Passkey[] }>('/api/me/passkeys') });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['passkeys'] });
  const add = useMutation({
    mutationFn: (label: string) => addPasskey(label),
    onSuccess: (created) => {
      setName('');
      notifications.show({ color: 'green', message: `Passkey “${created.name}” added.` });
      return refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete(`/api/me/passkeys/${id}`),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'The passkey is removed.' });
      return refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const rename = useMutation({
    mutationFn: ({ id, label }: { id: number; label: string }) => api.patch(`/api/me/passkeys/${id}`, { name: label }),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const label = name.trim();
    if (!label) {
      setNameError('Give the passkey a name, such as “Laptop”.');
      return;
    }
    setNameError(null);
    add.mutate(label);
  };
  return (
    <Stack component="section" aria-labelledby="passkeys-heading">
      <Title order={3} size="h4" id="passkeys-heading">
        Passkeys
      </Title>
      <Text size="sm">Sign in with your device's screen lock or a security key instead of a password. A passkey sign-in needs no two-factor code.</Text>
      {passkeys.isError ? <Text c="red">{passkeys.error.message}</Text> : null}
      {(passkeys.data?.data.length ?? 0) > 0 ? (
        <Table.ScrollContainer minWidth={480}>
          <Table striped aria-label="Your passkeys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.data!.data.map((passkey) => (
                <Table.Tr key={passkey.id}>
                  <Table.Td>{passkey.name}</Table.Td>
                  <Table.Td>{formatDateTime(passkey.created_at)}</Table.Td>
                  <Table.Td>{passkey.last_used_at ? formatDateTime(passkey.last_used_at) : 'Never'}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={`Rename ${passkey.name}`} onClick={() => {
                        const label = window.prompt('New name for this passkey', passkey.name)?.trim();
                        if (label) rename.mutate({ id: passkey.id, label });
                      }}>
                        Rename
                      </Button>
                      <Button size="xs" variant="light" color="red" aria-label={`Remove ${passkey.name}`} loading={remove.isPending && remove.variables === passkey.id} onClick={() => remove.mutate(passkey.id)}>
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          No passkeys yet.
        </Text>
      )}
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" maw={480}>
          <TextInput label="Passkey name" placeholder="Laptop" maxLength={64} value={name} error={nameError} onChange={(event) => setName(event.currentTarget.value)} style={{ flex: 1 }} />
          <Button type="submit" loading={add.isPending}>
            Add a passkey
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
