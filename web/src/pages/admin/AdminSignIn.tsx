// Sign-in options for administrators: the identity providers (OpenID Connect by discovery, or GitHub)
// people may sign in with, and the e-mail domains that must use one. A client secret is write-only: the
// page shows only whether one is set; leaving the field empty when editing keeps it.
import { useState } from 'react';
import { useLoadedValue } from '../../components/use-loaded-value.ts';
import { Badge, Button, Code, Group, MultiSelect, Paper, Select, Stack, Switch, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { useTranslation } from 'react-i18next';

const EMPTY = { slug: '', kind: 'oidc' as 'oidc' | 'github', name: '', issuer: '', client_id: '', client_secret: '' };

export default function AdminSignIn() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['admin', 'identity-providers'], queryFn: () => api.get<ApiAnswer<'/api/admin/identity-providers', 'get'>>('/api/admin/identity-providers') });
  const domains = useQuery({ queryKey: ['admin', 'signin-domains'], queryFn: () => api.get<ApiAnswer<'/api/admin/signin-domains', 'get'>>('/api/admin/signin-domains') });
  const [form, setForm] = useState(EMPTY);
  const [domainText, setDomainText] = useLoadedValue(domains.data?.domains.join('\n'), '');
  // The providers that vouch for those domains; none: any enabled provider does.
  const [vouching, setVouching] = useLoadedValue<string[]>(domains.data?.providers, []);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'identity-providers'] });
  const set = (field: keyof typeof EMPTY) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    const body = { slug: form.slug.trim(), kind: form.kind, name: form.name.trim(), client_id: form.client_id.trim(), client_secret: form.client_secret, ...(form.issuer.trim() ? { issuer: form.issuer.trim() } : {}) };
    if (await runAdminAction(() => api.post('/api/admin/identity-providers', body), t('admin.addedNamed', { name: body.name }), refresh)) setForm(EMPTY);
  };
  if (providers.isError) return <ErrorNotice error={providers.error} />;
  return (
    <Stack maw={900}>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            {t('admin.signIn.providers')}
          </Title>
          <Text size="sm">{t('admin.signIn.intro')}</Text>
          <CardTable minWidth={640}>
            <Table striped aria-label={t('admin.signIn.providers')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.users.name')}</Table.Th>
                  <Table.Th>{t('admin.signIn.kind')}</Table.Th>
                  <Table.Th>{t('admin.signIn.redirect')}</Table.Th>
                  <Table.Th>{t('admin.channelStatus.enabled')}</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">{t('keys.actions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(providers.data?.data ?? []).map((provider) => (
                  <Table.Tr key={provider.id}>
                    <Table.Td>
                      <span data-user-content>{provider.name}</span> {provider.source === 'config' ? <Badge size="sm">{t('admin.signIn.configFile')}</Badge> : null}
                    </Table.Td>
                    <Table.Td>{provider.kind === 'oidc' ? 'OpenID Connect' : 'GitHub'}</Table.Td>
                    <Table.Td>
                      <Code>{provider.redirect_uri}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Switch aria-label={t('admin.signIn.enabledNamed', { name: provider.name })} checked={provider.enabled} onChange={(event) => void runAdminAction(() => api.patch(`/api/admin/identity-providers/${provider.id}`, { enabled: event.currentTarget.checked }), t('admin.settings.saved'), refresh)} />
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" color="red" aria-label={t('settings.removeNamed', { name: provider.name })} onClick={() => {
                        if (window.confirm(t('admin.signIn.removeConfirm', { name: provider.name }))) void runAdminAction(() => api.delete(`/api/admin/identity-providers/${provider.id}`), t('admin.signIn.removed', { name: provider.name }), refresh);
                      }}>
                        {t('settings.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </CardTable>
          <form onSubmit={add} noValidate aria-label={t('admin.signIn.add')}>
            <Stack maw={560}>
              <Title order={3} size="h5">
                {t('admin.signIn.add')}
              </Title>
              <Select label={t('admin.signIn.kind')} data={[{ value: 'oidc', label: t('admin.signIn.oidc') }, { value: 'github', label: 'GitHub' }]} value={form.kind} onChange={(value) => set('kind')(value ?? 'oidc')} allowDeselect={false} />
              <TextInput label={t('admin.users.name')} description={t('admin.signIn.nameHint')} value={form.name} onChange={(event) => set('name')(event.currentTarget.value)} />
              <TextInput label={t('admin.signIn.slug')} description={t('admin.signIn.slugHint')} value={form.slug} onChange={(event) => set('slug')(event.currentTarget.value)} />
              <TextInput label={form.kind === 'oidc' ? t('admin.signIn.issuer') : t('admin.signIn.githubUrl')} value={form.issuer} onChange={(event) => set('issuer')(event.currentTarget.value)} />
              <TextInput label={t('admin.signIn.clientId')} value={form.client_id} onChange={(event) => set('client_id')(event.currentTarget.value)} />
              <TextInput label={t('admin.signIn.clientSecret')} type="password" autoComplete="off" value={form.client_secret} onChange={(event) => set('client_secret')(event.currentTarget.value)} />
              <Button type="submit" w="fit-content">
                {t('admin.signIn.addButton')}
              </Button>
            </Stack>
          </form>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack maw={560}>
          <Title order={2} size="h4">
            {t('admin.signIn.domainsTitle')}
          </Title>
          <Text size="sm">{t('admin.signIn.domainsIntro')}</Text>
          <Textarea label={t('admin.settings.domains')} description={t('admin.settings.domainsHint')} autosize minRows={2} value={domainText} onChange={(event) => setDomainText(event.currentTarget.value)} />
          <MultiSelect label={t('admin.signIn.vouching')} description={t('admin.signIn.vouchingHint')} placeholder={vouching.length === 0 ? t('admin.signIn.anyProvider') : undefined}
            data={(providers.data?.data ?? []).map((provider) => ({ value: provider.slug, label: provider.name }))} value={vouching} onChange={setVouching} clearable />
          <Group>
            <Button onClick={() => void runAdminAction(() => api.put('/api/admin/signin-domains', { domains: splitList(domainText), providers: vouching }), t('admin.settings.saved'), () => queryClient.invalidateQueries({ queryKey: ['admin', 'signin-domains'] }))}>
              {t('admin.signIn.saveDomains')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
