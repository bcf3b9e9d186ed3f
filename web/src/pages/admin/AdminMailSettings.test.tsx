// @vitest-environment jsdom
// The admin mail card: shows where mail goes without the SMTP URL, saves a new URL and From write-only,
// goes back to SMTP_URL / MAIL_FROM, and says whether a test mail was sent or what the server answered.
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import './admin-strings.ts';
import { AdminMailSettings } from './AdminMailSettings.tsx';
import { fakeFetch, renderRoutes } from '../../test-support/render-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mail = { transport: 'smtp' as const, smtp_url_set: true, smtp_host: 'mail.example.com:587', smtp_source: 'runtime' as const, from: 'Ops <ops@example.com>', from_source: 'env' as const, smtp_error: null, public_url: 'https://gw.example.com' };

it('saves a new SMTP URL and From, goes back to the defaults, and shows a failed test mail\'s SMTP error', async () => {
  const { fetchImpl, calls } = fakeFetch((method, path, body) => {
    if (method === 'PUT' && path === '/api/admin/settings') return { status: 200, body: { mail } };
    if (method === 'POST' && path === '/api/admin/settings/test-mail') return { status: 200, body: (body as { to: string }).to === 'ok@example.com' ? { sent: true, transport: 'smtp' } : { sent: false, error: 'Invalid login: 535 Authentication failed', transport: 'smtp' } };
    return { status: 404 };
  });
  vi.stubGlobal('fetch', fetchImpl);
  renderRoutes([{ path: '/', Component: () => <AdminMailSettings mail={mail} /> }], '/');
  expect(screen.getByText(/mail\.example\.com:587 \(set here\)/)).toBeTruthy();
  expect(screen.getByText(/Ops <ops@example\.com> \(from MAIL_FROM\)/)).toBeTruthy();

  await userEvent.type(screen.getByLabelText(/New SMTP URL/), 'smtp://u:secret@mail.example.com:587');
  await userEvent.type(screen.getByLabelText(/New From address/), 'Desk <desk@example.com>');
  await userEvent.click(screen.getByRole('button', { name: 'Save mail settings' }));
  await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
  expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ mail: { smtp_url: 'smtp://u:secret@mail.example.com:587', from: 'Desk <desk@example.com>' } });
  await waitFor(() => expect((screen.getByLabelText(/New SMTP URL/) as HTMLInputElement).value).toBe(''));

  await userEvent.click(screen.getByRole('button', { name: 'Use SMTP_URL and MAIL_FROM' }));
  await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
  expect(calls.filter((call) => call.method === 'PUT')[1]!.body).toEqual({ mail: { smtp_url: null, from: null } });

  await userEvent.type(screen.getByLabelText(/Send a test mail to/), 'bad@example.com');
  await userEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
  expect(await screen.findByText('Invalid login: 535 Authentication failed')).toBeTruthy();
  expect(screen.getByText('Test mail not sent')).toBeTruthy();
  await userEvent.clear(screen.getByLabelText(/Send a test mail to/));
  await userEvent.type(screen.getByLabelText(/Send a test mail to/), 'ok@example.com');
  await userEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
  expect(await screen.findByText('Test mail sent')).toBeTruthy();
});
