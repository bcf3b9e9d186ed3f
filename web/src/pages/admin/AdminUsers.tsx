import { useState } from 'react';
import { Badge, Button, Group, Menu, Modal, NumberInput, PasswordInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi, type AdminUser } from '../../api/admin-api.ts';
import { formatUsd } from '../../components/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';
import { runAdminAction } from './admin-actions.ts';
import { ConfirmDialog, type PendingConfirmation } from '../../components/ConfirmDialog.tsx';
import { UserLimitsDialog } from './UserLimitsDialog.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

export default function AdminUsers() {
  const [q, setQ] = useState('');
  const { t } = useTranslation();
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
      title: t(disabling ? 'admin.users.disableTitle' : 'admin.users.enableTitle', { who: who(user) }),
      body: t(disabling ? 'admin.users.disableBody' : 'admin.users.enableBody'),
      confirmLabel: t(disabling ? 'admin.users.disableUser' : 'admin.users.enableUser'),
      run: () => runAdminAction(() => adminApi.updateUser(user.id, { status: disabling ? 'disabled' : 'active' }), t(disabling ? 'admin.users.disabled' : 'admin.users.enabled'), refresh),
    });
  };
  const askRole = (user: AdminUser) => {
    const promoting = user.role !== 'admin';
    setConfirming({
      title: t(promoting ? 'admin.users.promoteTitle' : 'admin.users.demoteTitle', { who: who(user) }),
      body: t(promoting ? 'admin.users.promoteBody' : 'admin.users.demoteBody'),
      confirmLabel: t(promoting ? 'admin.users.makeAdministrator' : 'admin.users.makeUser'),
      run: () => runAdminAction(() => adminApi.updateUser(user.id, { role: promoting ? 'admin' : 'user' }), t('admin.users.roleChanged'), refresh),
    });
  };
  const askResetTwoFactor = (user: AdminUser) =>
    setConfirming({
      title: t('admin.users.resetTitle', { who: who(user) }),
      body: t('admin.users.resetBody'),
      confirmLabel: t('admin.users.resetTwoFactor'),
      run: () => runAdminAction(() => adminApi.resetTwoFactor(user.id), t('admin.users.resetDone'), refresh),
    });
  return (
    <Stack>
      <Group justify="space-between">
        <TextInput label={t('admin.users.search')} placeholder={t('admin.users.searchPlaceholder')} value={q} onChange={(event) => setQ(event.currentTarget.value)} w={280} />
        <Button onClick={() => setCreating(true)}>{t('admin.users.create')}</Button>
      </Group>
      {users.isError ? <ErrorNotice error={users.error} /> : null}
      <CardTable minWidth={820}>
        <Table striped aria-label={t('admin.users.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.users.email')}</Table.Th>
              <Table.Th>{t('admin.users.name')}</Table.Th>
              <Table.Th>{t('admin.users.role')}</Table.Th>
              <Table.Th>{t('wallet.status')}</Table.Th>
              <Table.Th>{t('admin.users.twoFactor')}</Table.Th>
              <Table.Th>{t('overview.balance')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(users.data ?? []).map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.email ?? '—'}</Table.Td>
                <Table.Td data-user-content>{user.name}</Table.Td>
                <Table.Td>{user.kind === 'organisation' ? <Badge color="grape">{t('admin.users.organisationWallet')}</Badge> : user.role === 'admin' ? <Badge>{t('admin.users.roleAdmin')}</Badge> : t('admin.users.roleUser')}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={user.status === 'active' ? 'green' : 'gray'}>
                    {user.status === 'active' ? t('keys.active') : t('keys.disabled')}
                  </Badge>
                </Table.Td>
                <Table.Td>{user.two_factor_enabled ? t('admin.on') : t('admin.off')}</Table.Td>
                <Table.Td>{formatUsd(user.balance_usd)}</Table.Td>
                <Table.Td>
                  <Menu position="bottom-end">
                    <Menu.Target>
                      <Button size="xs" variant="default" aria-label={t('keys.actionsFor', { name: user.email ?? user.name })}>
                        {t('keys.actions')}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setGranting(user)}>{t('admin.users.grantOrDebit')}</Menu.Item>
                      <Menu.Item onClick={() => setLimiting(user)}>{t('admin.users.rateLimits')}</Menu.Item>
                      <Menu.Item onClick={() => askStatus(user)}>{user.status === 'active' ? t('keys.disable') : t('keys.enable')}</Menu.Item>
                      <Menu.Item onClick={() => askRole(user)}>{user.role === 'admin' ? t('admin.users.makeAUser') : t('admin.users.makeAnAdmin')}</Menu.Item>
                      {user.two_factor_enabled ? <Menu.Item onClick={() => askResetTwoFactor(user)}>{t('admin.users.resetTwoFactor')}</Menu.Item> : null}
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
  const { t } = useTranslation();
  const grantProblem = amount === '' ? null : numberProblem(amount, { min: -1_000_000_000, max: 1_000_000_000, decimals: 6, format: usdBound });
  return (
    <Modal opened={user !== null} onClose={onClose} title={t('admin.users.grantTitle', { who: user?.email ?? user?.name ?? '' })}>
      <Stack>
        <NumberInput label={t('wallet.amountUsd')} description={t('admin.users.grantHint')} {...exactNumberProps} value={amount} onChange={setAmount} error={grantProblem} />
        <TextInput label={t('wallet.note')} value={note} onChange={(event) => setNote(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('keys.cancel')}
          </Button>
          <Button
            disabled={amount === '' || Number(amount) === 0 || grantProblem !== null}
            onClick={async () => {
              if (user && (await runAdminAction(() => adminApi.grant(user.id, Number(amount), note), t('admin.users.walletUpdated'), onDone))) {
                setAmount('');
                setNote('');
                onClose();
              }
            }}
          >
            {t('admin.users.apply')}
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
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={() => { setLink(null); onClose(); }} title={t('admin.users.create')}>
      {link ? (
        <Stack>
          <Text>{t('admin.users.createdLink')}</Text>
          <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
            {link}
          </Text>
        </Stack>
      ) : (
        <Stack>
          <TextInput label={t('auth.email')} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
          <TextInput label={t('admin.users.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
          <Select label={t('admin.users.role')} data={[{ value: 'user', label: t('admin.users.roleUser') }, { value: 'admin', label: t('admin.users.roleAdmin') }]} value={role} onChange={(value) => setRole(value === 'admin' ? 'admin' : 'user')} allowDeselect={false} />
          <PasswordInput label={t('auth.password')} description={t('admin.users.passwordHint')} value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
          <Group justify="flex-end">
            <Button
              onClick={() =>
                void runAdminAction(async () => {
                  const created = await adminApi.createUser({ email, role, ...(name ? { name } : {}), ...(password ? { password } : {}) });
                  if (created.set_password_url) setLink(created.set_password_url);
                  else onClose();
                }, t('admin.users.created'), onDone)
              }
            >
              {t('admin.users.create')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
