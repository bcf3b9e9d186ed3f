// "Sign in with <provider>" links: full-page navigations to the gateway's /api/auth/sso/<slug>/start,
// which redirects to the provider (a fetch could not follow it there).
import { Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/api-client.ts';
import type { ApiAnswer } from '../../api/api-types.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/i18n.ts';

/** The reasons a provider sign-in comes back refused (?signin_error=<code>), as auth.signinErrors.<code>. */
const SIGNIN_ERRORS = new Set(['signin_expired', 'email_not_verified', 'registration_closed', 'registration_domain_not_allowed', 'account_disabled', 'identity_provider_required', 'unknown_provider', 'provider_unavailable', 'provider_error']);

export function signinErrorText(code: string | null): string | null {
  if (!code) return null;
  return i18n.t(SIGNIN_ERRORS.has(code) ? `auth.signinErrors.${code}` : 'auth.signinErrors.other');
}

export function ProviderButtons({ next }: { next: string }) {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['auth-providers'], queryFn: () => api.get<ApiAnswer<'/api/auth/providers', 'get'>>('/api/auth/providers'), staleTime: 60_000 });
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
