import { useState } from 'react';
import { Badge, Button, Group, Menu, Modal, NumberInput, PasswordInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi, type AdminUser } from '../../api/admin-api.ts';
import { formatUsd } from '../../components/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';
import { runAdminAction } from './admin-actions.ts';
import { ConfirmDialog, type PendingConfirmation } from './ConfirmDialog.tsx';
import { UserLimitsDialog } from './UserLimitsDialog.tsx';
import { CardTable } from '../../components/CardTable.tsx';

export default function AdminUsers() {
  const [q, setQ] = useState('');
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: ['admin', 'users', q], queryFn: () => adminApi.users(q) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
  const [granting, setGranting] = useState<AdminUser | null>(null);
  const [limiting, setLimiting] = useState<AdminUser | null>(null);
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const who = (user: AdminUser) => user.email ?? user.name;
  const askStatus = (user: AdminUser) => {
    const disabling = user.status === 'active';
    setConfirming({
      title: disabling ? `Disable ${who(user)}?` : `Enable ${who(user)}?`,
      body: disabling ? 'They are signed out everywhere, and their keys stop working until the account is enabled again.' : 'They can sign in again, and their keys work again.',
      confirmLabel: disabling ? 'Disable user' : 'Enable user',
      run: () => runAdminAction(() => adminApi.updateUser(user.id, { status: disabling ? 'disabled' : 'active' }), disabling ? 'User disabled.' : 'User enabled.', refresh),
    });
  };
  const askRole = (user: AdminUser) => {
    const promoting = user.role !== 'admin';
    setConfirming({
      title: promoting ? `Make ${who(user)} an administrator?` : `Make ${who(user)} a user?`,
      body: promoting
        ? 'They can then change every user, channel, price and setting, and move money. They are signed out everywhere and sign in again with the new role.'
        : 'They lose access to the administration pages and are signed out everywhere. The last active administrator cannot lose the role.',
      confirmLabel: promoting ? 'Make administrator' : 'Make user',
      run: () => runAdminAction(() => adminApi.updateUser(user.id, { role: promoting ? 'admin' : 'user' }), 'Role changed.', refresh),
    });
  };
  const askResetTwoFactor = (user: AdminUser) =>
    setConfirming({
      title: `Reset two-factor for ${who(user)}?`,
      body: 'Their two-factor sign-in and recovery codes are removed and they are signed out everywhere: anyone with their password can then sign in. Do this only once you are sure who asked.',
      confirmLabel: 'Reset two-factor',
      run: () => runAdminAction(() => adminApi.resetTwoFactor(user.id), 'Two-factor sign-in turned off for this user.', refresh),
    });
  return (
    <Stack>
      <Group justify="space-between">
        <TextInput label="Search users" placeholder="E-mail or name" value={q} onChange={(event) => setQ(event.currentTarget.value)} w={280} />
        <Button onClick={() => setCreating(true)}>Create user</Button>
      </Group>
      {users.isError ? <ErrorNotice error={users.error} /> : null}
      <CardTable minWidth={820}>
        <Table striped aria-label="Users">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>E-mail</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Two-factor</Table.Th>
              <Table.Th>Balance</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(users.data ?? []).map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.email ?? '—'}</Table.Td>
                <Table.Td>{user.name}</Table.Td>
                <Table.Td>{user.kind === 'organisation' ? <Badge color="grape">Organisation wallet</Badge> : user.role === 'admin' ? <Badge>Admin</Badge> : 'User'}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={user.status === 'active' ? 'green' : 'gray'}>
                    {user.status === 'active' ? 'Active' : 'Disabled'}
                  </Badge>
                </Table.Td>
                <Table.Td>{user.two_factor_enabled ? 'On' : 'Off'}</Table.Td>
                <Table.Td>{formatUsd(user.balance_usd)}</Table.Td>
                <Table.Td>
                  <Menu position="bottom-end">
                    <Menu.Target>
                      <Button size="xs" variant="default" aria-label={`Actions for ${user.email ?? user.name}`}>
                        Actions
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setGranting(user)}>Grant or debit</Menu.Item>
                      <Menu.Item onClick={() => setLimiting(user)}>Rate limits</Menu.Item>
                      <Menu.Item onClick={() => askStatus(user)}>{user.status === 'active' ? 'Disable' : 'Enable'}</Menu.Item>
                      <Menu.Item onClick={() => askRole(user)}>{user.role === 'admin' ? 'Make a user' : 'Make an admin'}</Menu.Item>
                      {user.two_factor_enabled ? <Menu.Item onClick={() => askResetTwoFactor(user)}>Reset two-factor</Menu.Item> : null}
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <GrantDialog user={granting} onClose={() => setGranting(null)} onDone={refresh} />
      <UserLimitsDialog user={limiting} onClose={() => setLimiting(null)} onDone={refresh} />
      <CreateUserDialog opened={creating} onClose={() => setCreating(false)} onDone={refresh} />
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
    </Stack>
  );
}

function GrantDialog({ user, onClose, onDone }: { user: AdminUser | null; onClose: () => void; onDone: () => unknown }) {
  const [amount, setAmount] = useState<number | string>('');
  const [note, setNote] = useState('');
  const grantProblem = amount === '' ? null : numberProblem(amount, { min: -1_000_000_000, max: 1_000_000_000, decimals: 6, format: usdBound });
  return (
    <Modal opened={user !== null} onClose={onClose} title={`Grant or debit ${user?.email ?? user?.name ?? ''}`}>
      <Stack>
        <NumberInput label="Amount (USD)" description="Negative to debit; exact to a micro-dollar (6 decimals)." {...exactNumberProps} value={amount} onChange={setAmount} error={grantProblem} />
        <TextInput label="Note" value={note} onChange={(event) => setNote(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={amount === '' || Number(amount) === 0 || grantProblem !== null}
            onClick={async () => {
              if (user && (await runAdminAction(() => adminApi.grant(user.id, Number(amount), note), 'The wallet is updated.', onDone))) {
                setAmount('');
                setNote('');
                onClose();
              }
            }}
          >
            Apply
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function CreateUserDialog({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: () => unknown }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<'user' | 'admin'>('user');
  const [password, setPassword] = useState('');
  const [link, setLink] = useState<string | null>(null);
  return (
    <Modal opened={opened} onClose={() => { setLink(null); onClose(); }} title="Create user">
      {link ? (
        <Stack>
          <Text>The user is created and a link to set their password was mailed to them:</Text>
          <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
            {link}
          </Text>
        </Stack>
      ) : (
        <Stack>
          <TextInput label="Email" type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
          <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} />
          <Select label="Role" data={[{ value: 'user', label: 'User' }, { value: 'admin', label: 'Admin' }]} value={role} onChange={(value) => setRole(value === 'admin' ? 'admin' : 'user')} allowDeselect={false} />
          <PasswordInput label="Password" description="Empty: the user gets a mail with a link to choose one." value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
          <Group justify="flex-end">
            <Button
              onClick={() =>
                void runAdminAction(async () => {
                  const created = await adminApi.createUser({ email, role, ...(name ? { name } : {}), ...(password ? { password } : {}) });
                  if (created.set_password_url) setLink(created.set_password_url);
                  else onClose();
                }, 'User created.', onDone)
              }
            >
              Create user
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
