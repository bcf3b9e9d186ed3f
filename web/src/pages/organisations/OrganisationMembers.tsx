// Members with their role and monthly cap, leaving, removing, handing over the ownership; invitations by
// e-mail and the pending ones (owners and admins).
import { useState } from 'react';
import { Button, Group, NumberInput, Paper, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMe } from '../../api/session.ts';
import { ORGANISATION_ROLES, canManage, organisationsApi, type Member, type Organisation, type OrganisationRole } from '../../api/organisations-api.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { formatDateTime } from '../../components/format.ts';
import { ConfirmDialog, type PendingConfirmation } from '../../components/ConfirmDialog.tsx';

export function OrganisationMembers({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const myId = Number(useMe().data?.id);
  const manager = canManage(organisation.role);
  // Handing over the ownership, removing a member and leaving cannot be undone from this page: each asks first.
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const names = (member: Member) => ({ name: member.name, organisation: organisation.name });
  const members = useQuery({ queryKey: ['org-members', organisation.id], queryFn: () => organisationsApi.members(organisation.id) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['org-members', organisation.id] });
  const failed = (error: unknown) => notifications.show({ color: 'red', message: error instanceof Error ? error.message : t('orgs.failed') });
  const change = useMutation({
    mutationFn: ({ member, changes }: { member: Member; changes: { role?: OrganisationRole; monthly_cap_usd?: number | null } }) => organisationsApi.changeMember(organisation.id, member.user_id, changes),
    onSuccess: () => { notifications.show({ color: 'green', message: t('orgs.members.saved') }); return refresh(); },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (member: Member) => organisationsApi.removeMember(organisation.id, member.user_id),
    onSuccess: async (_answer, member) => {
      if (member.user_id === myId) {
        await queryClient.invalidateQueries({ queryKey: ['orgs'] });
        navigate('/orgs');
      } else await refresh();
    },
    onError: failed,
  });
  const transfer = useMutation({
    mutationFn: (member: Member) => organisationsApi.transfer(organisation.id, member.user_id),
    onSuccess: async () => { await queryClient.invalidateQueries({ queryKey: ['org', organisation.id] }); await refresh(); },
    onError: failed,
  });
  return (
    <Stack>
      <CardTable minWidth={720}>
        <Table striped aria-label={t('orgs.tabs.members')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orgs.members.member')}</Table.Th>
              <Table.Th>{t('orgs.members.role')}</Table.Th>
              <Table.Th>{t('orgs.members.cap')}</Table.Th>
              <Table.Th><span className="visually-hidden">{t('orgs.members.actions')}</span></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(members.data ?? []).map((member) => (
              <Table.Tr key={member.user_id}>
                <Table.Td>{member.name}{member.email ? ` <${member.email}>` : ''}</Table.Td>
                <Table.Td>
                  {manager ? (
                    <Select aria-label={t('orgs.members.roleOf', { name: member.name })} value={member.role} allowDeselect={false} w={140}
                      data={ORGANISATION_ROLES.map((role) => ({ value: role, label: t(`orgs.roles.${role}`) }))}
                      onChange={(value) => value && value !== member.role && change.mutate({ member, changes: { role: value as OrganisationRole } })} />
                  ) : t(`orgs.roles.${member.role}`)}
                </Table.Td>
                <Table.Td>
                  {manager ? <CapField member={member} onSave={(cap) => change.mutate({ member, changes: { monthly_cap_usd: cap } })} /> : member.monthly_cap_usd ?? t('orgs.members.noCap')}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {organisation.role === 'owner' && member.user_id !== myId ? (
                      <Button size="xs" variant="default" onClick={() => setConfirming({ title: t('orgs.members.makeOwnerTitle', names(member)), body: t('orgs.members.makeOwnerBody', names(member)), confirmLabel: t('orgs.members.makeOwner'), run: () => transfer.mutateAsync(member).catch(() => undefined) })}>{t('orgs.members.makeOwner')}</Button>
                    ) : null}
                    {member.user_id === myId ? (
                      <Button size="xs" variant="default" color="red" onClick={() => setConfirming({ title: t('orgs.members.leaveTitle', names(member)), body: t('orgs.members.leaveBody', names(member)), confirmLabel: t('orgs.members.leave'), run: () => remove.mutateAsync(member).catch(() => undefined) })}>{t('orgs.members.leave')}</Button>
                    ) : manager ? (
                      <Button size="xs" variant="default" color="red" onClick={() => setConfirming({ title: t('orgs.members.removeTitle', names(member)), body: t('orgs.members.removeBody', names(member)), confirmLabel: t('orgs.members.remove'), run: () => remove.mutateAsync(member).catch(() => undefined) })}>{t('orgs.members.remove')}</Button>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      {manager ? <Invitations organisation={organisation} /> : null}
      <ConfirmDialog pending={confirming} onClose={() => setConfirming(null)} />
    </Stack>
  );
}

function CapField({ member, onSave }: { member: Member; onSave: (cap: number | null) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | number>(member.monthly_cap_usd ?? '');
  return (
    <Group gap="xs" wrap="nowrap">
      <NumberInput aria-label={t('orgs.members.capOf', { name: member.name })} value={value} onChange={setValue} min={0} decimalScale={6} prefix="$" w={130} placeholder={t('orgs.members.noCap')} />
      <Button size="xs" variant="default" onClick={() => onSave(value === '' ? null : Number(value))}>{t('orgs.members.saveCap')}</Button>
    </Group>
  );
}

function Invitations({ organisation }: { organisation: Organisation }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrganisationRole>('member');
  const invites = useQuery({ queryKey: ['org-invites', organisation.id], queryFn: () => organisationsApi.invites(organisation.id) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['org-invites', organisation.id] });
  const invite = useMutation({
    mutationFn: () => organisationsApi.invite(organisation.id, email.trim(), role),
    onSuccess: () => { notifications.show({ color: 'green', message: t('orgs.invites.sent', { email: email.trim() }) }); setEmail(''); return refresh(); },
  });
  const revoke = useMutation({ mutationFn: (id: number) => organisationsApi.revokeInvite(organisation.id, id), onSuccess: refresh });
  const roles = ORGANISATION_ROLES.filter((choice) => choice !== 'owner' || organisation.role === 'owner');
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">{t('orgs.invites.title')}</Title>
      <form onSubmit={(event) => { event.preventDefault(); if (email.trim()) invite.mutate(); }}>
        <Group align="end">
          <TextInput type="email" label={t('orgs.invites.email')} value={email} onChange={(event) => setEmail(event.currentTarget.value)} style={{ flex: 1 }} miw={220}
            error={invite.error instanceof Error ? invite.error.message : undefined} />
          <Select label={t('orgs.members.role')} value={role} allowDeselect={false} w={140} data={roles.map((choice) => ({ value: choice, label: t(`orgs.roles.${choice}`) }))}
            onChange={(value) => value && setRole(value as OrganisationRole)} />
          <Button type="submit" loading={invite.isPending}>{t('orgs.invites.send')}</Button>
        </Group>
      </form>
      {(invites.data ?? []).length > 0 ? (
        <CardTable minWidth={520}>
          <Table mt="md" aria-label={t('orgs.invites.pending')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orgs.invites.email')}</Table.Th>
                <Table.Th>{t('orgs.members.role')}</Table.Th>
                <Table.Th>{t('orgs.invites.expires')}</Table.Th>
                <Table.Th><span className="visually-hidden">{t('orgs.members.actions')}</span></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(invites.data ?? []).map((pending) => (
                <Table.Tr key={pending.id}>
                  <Table.Td>{pending.email}</Table.Td>
                  <Table.Td>{t(`orgs.roles.${pending.role}`)}</Table.Td>
                  <Table.Td>{pending.expired ? t('orgs.invites.expired') : formatDateTime(pending.expires_at)}</Table.Td>
                  <Table.Td><Button size="xs" variant="default" onClick={() => revoke.mutate(pending.id)}>{t('orgs.invites.revoke')}</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </CardTable>
      ) : null}
    </Paper>
  );
}
