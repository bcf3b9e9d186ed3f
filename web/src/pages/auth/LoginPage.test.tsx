// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginPage } from './LoginPage.tsx';
import { fakeFetch, renderRoutes } from '../../test-support/render-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The page asks which identity providers to offer; these tests are about the password form. */
const noProviders = (path: string) => (path === '/api/auth/providers' ? { status: 200, body: { data: [] } } : undefined);
const formCalls = <T extends { path: string }>(calls: T[]) => calls.filter((call) => call.path !== '/api/auth/providers');

const routes = [
  { path: '/login', Component: LoginPage },
  { path: '/keys', Component: () => <p>keys page</p> },
  { path: '/', Component: () => <p>overview page</p> },
];

describe('the sign-in form', () => {
  it('checks the fields before sending anything', async () => {
    const { fetchImpl, calls } = fakeFetch((_method, path) => noProviders(path) ?? { status: 500 });
    vi.stubGlobal('fetch', fetchImpl);
    renderRoutes(routes, '/login');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/Enter an e-mail address/)).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(formCalls(calls)).toHaveLength(0);
  });

  it('asks for the two-factor code when the server says so, then returns to ?next=', async () => {
    const { fetchImpl, calls } = fakeFetch((_method, path) => {
      if (path === '/api/auth/providers') return noProviders(path)!;
      if (path === '/api/auth/login') return { status: 401, body: { error: { message: 'Enter your two-factor code.', type: 'authentication_error', param: null, code: 'totp_required' } } };
      if (path === '/api/auth/login/totp') return { status: 200, body: { user: { id: 'u1', email: 'a@example.com', name: 'A', role: 'user', email_verified: true }, csrf_token: 'csrf-1' } };
      return { status: 404 };
    });
    vi.stubGlobal('fetch', fetchImpl);
    const { router } = renderRoutes(routes, '/login?next=%2Fkeys');
    await userEvent.type(screen.getByLabelText(/Email/), 'a@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText(/Code/);
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/keys'));
    expect(formCalls(calls).map((call) => call.path)).toEqual(['/api/auth/login', '/api/auth/login/totp']);
    expect(formCalls(calls)[1]!.body).toEqual({ code: '123456' });
  });

  it('shows the server message in plain words and never follows a next= to another site', async () => {
    let attempts = 0;
    const { fetchImpl } = fakeFetch((_method, path) => {
      const providers = noProviders(path);
      if (providers) return providers;
      attempts += 1;
      if (attempts === 1) return { status: 401, body: { error: { message: 'The e-mail address or the password is wrong.', type: 'authentication_error', param: null, code: 'invalid_credentials' } } };
      return { status: 200, body: { user: { id: 'u1', email: 'a@example.com', role: 'user', email_verified: true }, csrf_token: 't' } };
    });
    vi.stubGlobal('fetch', fetchImpl);
    const { router } = renderRoutes(routes, '/login?next=%2F%2Fevil.example');
    await userEvent.type(screen.getByLabelText(/Email/), 'a@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'wrong password!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The e-mail address or the password is wrong.');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
