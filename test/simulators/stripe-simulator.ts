// A simulator of the part of Stripe the gateway uses: Checkout Sessions (create and retrieve, form-encoded
// as the `stripe` SDK sends them, with Bearer secret-key auth and Stripe's error shape), a hosted "pay"
// page that completes a session, and webhook deliveries signed the way Stripe signs them (the SDK's own
// generateTestHeaderString), so the gateway's verification is exercised for real.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { parseStripeForm } from './stripe-form.ts';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  payment_intent: string | null;
  created: number;
  livemode: false;
}

interface StripeSimulatorOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where completed sessions are announced (the gateway's webhook URL); settable later. */
  webhookUrl?: string;
}

export interface StripeSimulator {
  url: string;
  host: string;
  port: number;
  sessions: Map<string, CheckoutSession>;
  /** Every API request's method, path and parsed form body. */
  requests: Array<{ method: string; path: string; body: Record<string, unknown> }>;
  webhookUrl: string | undefined;
  /** An event as Stripe would send it, with its signed header (a fresh or a given timestamp). */
  signedEvent(type: string, object: object, options?: { id?: string; timestamp?: number; secret?: string }): { payload: string; header: string; id: string };
  /** Delivers a signed event to the webhook URL; resolves with the gateway's status. */
  deliver(type: string, object: object, options?: { id?: string; timestamp?: number }): Promise<number>;
  /** Completes a session as a paid checkout would, and delivers checkout.session.completed. */
  pay(sessionId: string): Promise<number>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export async function startStripeSimulator(options: StripeSimulatorOptions): Promise<StripeSimulator> {
  const sessions = new Map<string, CheckoutSession>();
  const requests: StripeSimulator['requests'] = [];
  const signer = new Stripe(options.secretKey);
  let base = '';

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, 'api_error', String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  const simulator: StripeSimulator = {
    url: base,
    host: '127.0.0.1',
    port,
    sessions,
    requests,
    webhookUrl: options.webhookUrl,
    signedEvent(type, object, eventOptions = {}) {
      const eventId = eventOptions.id ?? id('evt');
      const payload = JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: '2025-01-27',
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        data: { object },
      });
      const header = signer.webhooks.generateTestHeaderString({
        payload,
        secret: eventOptions.secret ?? options.webhookSecret,
        ...(eventOptions.timestamp !== undefined ? { timestamp: eventOptions.timestamp } : {}),
      });
      return { payload, header, id: eventId };
    },
    async deliver(type, object, eventOptions = {}) {
      if (!simulator.webhookUrl) throw new Error('the Stripe simulator has no webhook URL');
      const { payload, header } = simulator.signedEvent(type, object, eventOptions);
      const answer = await fetch(simulator.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
      await answer.arrayBuffer();
      return answer.status;
    },
    async pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent ??= id('pi');
      return simulator.deliver('checkout.session.completed', session);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    const text = await readText(request);
    // The hosted checkout page: a person (or the browser test) pays with one button.
    const pay = /^\/c\/pay\/([\w]+)$/.exec(url.pathname);
    if (pay) {
      const session = sessions.get(pay[1]!);
      if (!session) return void response.writeHead(404).end('No such checkout session');
      if (request.method === 'POST') {
        await simulator.pay(session.id);
        response.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Stripe checkout (simulator)</title><main><h1>Pay $${(session.amount_total / 100).toFixed(2)}</h1>
<form method="post"><button type="submit">Pay</button></form><a href="${session.cancel_url}">Cancel</a></main>`);
      return;
    }

    const body = text ? parseStripeForm(text) : {};
    requests.push({ method: request.method ?? 'GET', path: url.pathname, body });
    if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
      return sendError(response, 401, 'invalid_request_error', 'Invalid API Key provided.');
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const item = (body.line_items as Array<Record<string, unknown>> | undefined)?.[0];
      const price = item?.price_data as Record<string, unknown> | undefined;
      const unitAmount = Number(price?.unit_amount);
      const quantity = Number(item?.quantity ?? 1);
      if (body.mode !== 'payment') return sendError(response, 400, 'invalid_request_error', 'mode must be payment', 'mode');
      if (!price || !Number.isInteger(unitAmount) || unitAmount < 50) return sendError(response, 400, 'invalid_request_error', 'Invalid unit_amount', 'line_items[0][price_data][unit_amount]');
      if (typeof body.success_url !== 'string' || typeof body.cancel_url !== 'string') return sendError(response, 400, 'invalid_request_error', 'Missing success_url or cancel_url', 'success_url');
      const sessionId = id('cs');
      const session: CheckoutSession = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: unitAmount * quantity,
        amount_subtotal: unitAmount * quantity,
        currency: String(price.currency ?? 'usd'),
        client_reference_id: typeof body.client_reference_id === 'string' ? body.client_reference_id : null,
        metadata: (body.metadata ?? {}) as Record<string, string>,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `${base}/c/pay/${sessionId}`,
        payment_intent: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      sessions.set(sessionId, session);
      return sendJson(response, 200, session);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
    if (request.method === 'GET' && retrieve) {
      const session = sessions.get(retrieve[1]!);
      return session ? sendJson(response, 200, session) : sendError(response, 404, 'invalid_request_error', `No such checkout.session: '${retrieve[1]}'`, 'id', 'resource_missing');
    }
    return sendError(response, 404, 'invalid_request_error', `Unrecognized request URL (${request.method}: ${url.pathname}).`);
  }

  return simulator;
}

function readText(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(8).toString('hex')}` });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, type: string, message: string, param?: string, code?: string): void {
  sendJson(response, status, { error: { type, message, ...(param ? { param } : {}), ...(code ? { code } : {}) } });
}
