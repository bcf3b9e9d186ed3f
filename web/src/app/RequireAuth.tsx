// Pages behind sign-in. A missing or expired session leads to /login?next=<this page>, and sign-in comes
// back here. An account whose address is not verified yet is sent to the verification notice.
import { i18n } from '../i18n/i18n.ts';
import { useEffect } from 'react';
import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { meQueryKey, useMe } from '../api/session.ts';
import { isSignedOut, setCsrfToken, SIGNED_OUT_EVENT } from '../api/api-client.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';

export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Any call that finds the session gone (expired, revoked elsewhere) leads to sign-in, then back here.
  useEffect(() => {
    const onSignedOut = () => {
      setCsrfToken(null);
      queryClient.removeQueries({ queryKey: meQueryKey });
      navigate(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`, { replace: true });
    };
    window.addEventListener(SIGNED_OUT_EVENT, onSignedOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, onSignedOut);
  }, [navigate, queryClient]);
  if (me.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label={i18n.t('common.loading')} />
      </Center>
    );
  }
  if (me.isError) {
    if (isSignedOut(me.error)) {
      const next = location.pathname + location.search;
      return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
    }
    return <ErrorNotice error={me.error} />;
  }
  if (!me.data.email_verified) return <Navigate to="/verify-email" replace />;
  return <Outlet />;
}

