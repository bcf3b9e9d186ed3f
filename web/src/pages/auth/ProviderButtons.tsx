// "Sign in with <provider>" links: full-page navigations to the gateway's /api/auth/sso/<slug>/start,
// which redirects to the provider (a fetch could not follow it there).
import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import { useTranslation } from 'react-i18next';

interface Provider {
  slug: string;
  name: string;
  start_url: string;
}

const SIGNIN_ERRORS: Record<string, string> = {
  signin_expired: 'That sign-in took too long or was already used. Please start again.',
  email_not_verified: 'Your identity provider did not confirm your e-mail address, so it cannot sign you in here. Verify it there first.',
  registration_closed: 'Sign-up is closed on this gateway. Ask an administrator for an account.',
  registration_domain_not_allowed: 'Sign-up is open only to some e-mail domains, and your address is not in one of them.',
  account_disabled: 'This account is disabled.',
  identity_provider_required: "Addresses at your domain sign in with your organisation's identity provider, not this one: use its button.",
  unknown_provider: 'That identity provider is not available.',
  provider_unavailable: 'The identity provider could not be reached. Please try again later.',
  provider_error: 'The identity provider did not sign you in. Please start again.',
};

export function signinErrorText(code: string | null): string | null {
  if (!code) return null;
  return SIGNIN_ERRORS[code] ?? 'The sign-in did not finish. Please start again.';
}

export function ProviderButtons({ next }: { next: string }) {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['auth-providers'], queryFn: () => api.get<{ data: Provider[] }>('/api/auth/providers'), staleTime: 60_000 });
  const list = providers.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap="xs">
      {list.map((provider) => (
        <Button key={provider.slug} component="a" variant="default" fullWidth href={`${provider.start_url}?next=${encodeURIComponent(next)}`}>
          {t('auth.signInWithProvider', { name: provider.name })}
        </Button>
      ))}
    </Stack>
  );
}
