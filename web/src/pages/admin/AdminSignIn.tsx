// Sign-in options for administrators: the identity providers (OpenID Connect by discovery, or GitHub)
// people may sign in with, and the e-mail domains that must use one. A client secret is write-only: the
// page shows only whether one is set; leaving the field empty when editing keeps it.
import { useEffect, useState } from 'react';
import { Badge, Button, Code, Group, Paper, Select, Stack, Switch, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { runAdminAction, splitList } from './admin-actions.ts';

interface IdentityProvider {
  id: number;
  slug: string;
  kind: 'oidc' | 'github';
  name: string;
  issuer: string | null;
  client_id: string;
  client_secret_set: boolean;
  enabled: boolean;
  source: 'config' | 'admin';
  redirect_uri: string;
}

const EMPTY = { slug: '', kind: 'oidc' as 'oidc' | 'github', name: '', issuer: '', client_id: '', client_secret: '' };

export default function AdminSignIn() {
  const queryClient = useQueryClient();
  const providers = useQuery({ queryKey: ['admin', 'identity-providers'], queryFn: () => api.get<{ data: IdentityProvider[] }>('/api/admin/identity-providers') });
  const domains = useQuery({ queryKey: ['admin', 'signin-domains'], queryFn: () => api.get<{ domains: string[] }>('/api/admin/signin-domains') });
  const [form, setForm] = useState(EMPTY);
  const [domainText, setDomainText] = useState('');
  useEffect(() => {
    if (domains.data) setDomainText(domains.data.domains.join('\n'));
  }, [domains.data]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'identity-providers'] });
  const set = (field: keyof typeof EMPTY) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    const body = { slug: form.slug.trim(), kind: form.kind, name: form.name.trim(), client_id: form.client_id.trim(), client_secret: form.client_secret, ...(form.issuer.trim() ? { issuer: form.issuer.trim() } : {}) };
    if (await runAdminAction(() => api.post('/api/admin/identity-providers', body), `${body.name} added.`, refresh)) setForm(EMPTY);
  };
  if (providers.isError) return <ErrorNotice error={providers.error} />;
  return (
    <Stack maw={900}>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            Identity providers
          </Title>
          <Text size="sm">Register each provider's redirect URI at the provider. Accounts are linked by an e-mail address the provider has verified, never by an unverified one.</Text>
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Identity providers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Redirect URI</Table.Th>
                  <Table.Th>Enabled</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">Actions</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(providers.data?.data ?? []).map((provider) => (
                  <Table.Tr key={provider.id}>
                    <Table.Td>
                      {provider.name} {provider.source === 'config' ? <Badge size="sm">config file</Badge> : null}
                    </Table.Td>
                    <Table.Td>{provider.kind === 'oidc' ? 'OpenID Connect' : 'GitHub'}</Table.Td>
                    <Table.Td>
                      <Code>{provider.redirect_uri}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Switch aria-label={`${provider.name} enabled`} checked={provider.enabled} onChange={(event) => void runAdminAction(() => api.patch(`/api/admin/identity-providers/${provider.id}`, { enabled: event.currentTarget.checked }), 'Saved.', refresh)} />
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" color="red" aria-label={`Remove ${provider.name}`} onClick={() => {
                        if (window.confirm(`Remove ${provider.name}? People linked to it keep their accounts but can no longer sign in with it.`)) void runAdminAction(() => api.delete(`/api/admin/identity-providers/${provider.id}`), `${provider.name} removed.`, refresh);
                      }}>
                        Remove
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <form onSubmit={add} noValidate aria-label="Add an identity provider">
            <Stack maw={560}>
              <Title order={3} size="h5">
                Add an identity provider
              </Title>
              <Select label="Kind" data={[{ value: 'oidc', label: 'OpenID Connect (Google, Microsoft, Okta, Keycloak, …)' }, { value: 'github', label: 'GitHub' }]} value={form.kind} onChange={(value) => set('kind')(value ?? 'oidc')} allowDeselect={false} />
              <TextInput label="Name" description="Shown on the sign-in button." value={form.name} onChange={(event) => set('name')(event.currentTarget.value)} />
              <TextInput label="Slug" description="Lower-case letters, digits and dashes; part of the redirect URI." value={form.slug} onChange={(event) => set('slug')(event.currentTarget.value)} />
              <TextInput label={form.kind === 'oidc' ? 'Issuer URL' : 'GitHub URL (optional, for GitHub Enterprise Server)'} value={form.issuer} onChange={(event) => set('issuer')(event.currentTarget.value)} />
              <TextInput label="Client ID" value={form.client_id} onChange={(event) => set('client_id')(event.currentTarget.value)} />
              <TextInput label="Client secret" type="password" autoComplete="off" value={form.client_secret} onChange={(event) => set('client_secret')(event.currentTarget.value)} />
              <Button type="submit" w="fit-content">
                Add provider
              </Button>
            </Stack>
          </form>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack maw={560}>
          <Title order={2} size="h4">
            Domains that must use an identity provider
          </Title>
          <Text size="sm">People with an address at these domains cannot sign in with a password or a passkey.</Text>
          <Textarea label="E-mail domains" description="One per line, such as example.com." autosize minRows={2} value={domainText} onChange={(event) => setDomainText(event.currentTarget.value)} />
          <Group>
            <Button onClick={() => void runAdminAction(() => api.put('/api/admin/signin-domains', { domains: splitList(domainText) }), 'Saved.', () => queryClient.invalidateQueries({ queryKey: ['admin', 'signin-domains'] }))}>
              Save domains
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
