// An error is built from its catalogue code alone: status and kind come from src/gateway-error-codes.ts,
// and only an upstream's error (GW_ERR_UPSTREAM_STATUS) takes a status from its caller. The lines under an
// expect-error directive are the type system's half of this test: `npm test` runs tsc over test/, so each fails
// the build the day the types accept what they must refuse (an undeclared client code, a status or kind
// by hand, a code that is not in the catalogue).
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS, kindForStatus, type DeclaredError, type GatewayErrorCode } from '../../src/gateway-error-codes.ts';
import { forbidden, gatewayError, invalidRequest, restated } from '../../src/gateway-errors.ts';
import { upstreamStatusError } from '../../src/hub/hub-errors.ts';
import { attemptRecord } from '../../src/relay/attempt-log.ts';

const declared = Object.entries(GATEWAY_ERRORS) as [GatewayErrorCode, DeclaredError][];

describe('gatewayError(code, texts)', () => {
  it('gives every declared code the status and kind the catalogue declares', () => {
    const fixed = declared.filter(([, entry]) => entry.status !== 'upstream');
    expect(fixed.length).toBeGreaterThan(50);
    for (const [code, entry] of fixed) {
      const error = gatewayError(code as 'GW_ERR_INTERNAL', { message: 'm' });
      expect([error.gatewayCode, error.status, error.kind], code).toEqual([code, entry.status, entry.kind]);
    }
  });

  it("keeps an upstream's status, its kind from the status unless the upstream's envelope named one", () => {
    const limited = gatewayError('GW_ERR_UPSTREAM_STATUS', { status: 429, message: 'slow down', code: 'rate_limit_exceeded' });
    expect([limited.status, limited.kind, limited.code]).toEqual([429, 'rate_limit_error', 'rate_limit_exceeded']);
    const quota = upstreamStatusError(429, { message: 'no credit', code: 'insufficient_quota', kind: 'insufficient_quota' });
    expect([quota.status, quota.kind, quota.gatewayCode]).toEqual([429, 'insufficient_quota', 'GW_ERR_UPSTREAM_STATUS']);
    expect(upstreamStatusError(529, { message: 'busy' }).kind).toBe(kindForStatus(529));
  });

  it('carries the texts it was given, and restated() keeps code, status and kind while replacing them', () => {
    const cause = new Error('socket');
    const error = gatewayError('GW_ERR_RATE_LIMITED', { message: 'wait', code: 'rate_limit_exceeded', param: 'model', headers: { 'retry-after': '3' }, cause });
    expect({ message: error.message, code: error.code, param: error.param, headers: error.headers, cause: error.cause }).toEqual({ message: 'wait', code: 'rate_limit_exceeded', param: 'model', headers: { 'retry-after': '3' }, cause });
    const bare = gatewayError('GW_ERR_CLIENT_GONE', { message: 'gone' });
    expect([bare.code, bare.param, bare.headers]).toEqual([null, null, {}]);
    const cut = restated(error, { message: 'shorter', code: error.code });
    expect([cut.gatewayCode, cut.status, cut.kind, cut.message, cut.code]).toEqual(['GW_ERR_RATE_LIMITED', 429, 'rate_limit_error', 'shorter', 'rate_limit_exceeded']);
  });

  it('refuses, at compile time, what the catalogue does not declare', () => {
    const refused = [
      // @ts-expect-error a client code declared for another gateway code
      () => gatewayError('GW_ERR_NO_ROUTE', { message: 'm', code: 'model_not_found' }),
      // @ts-expect-error a status by hand for a code whose status is declared
      () => gatewayError('GW_ERR_NO_ROUTE', { message: 'm', status: 500 }),
      // @ts-expect-error a kind by hand for a code whose kind is declared
      () => gatewayError('GW_ERR_INTERNAL', { message: 'm', kind: 'server_error' }),
      // @ts-expect-error an upstream's error without the upstream's status
      () => gatewayError('GW_ERR_UPSTREAM_STATUS', { message: 'm' }),
      // @ts-expect-error a code that is not in the catalogue
      () => gatewayError('GW_ERR_SOMETHING_ELSE', { message: 'm' }),
      // @ts-expect-error an error nobody sees carries no client code
      () => gatewayError('GW_ERR_CLIENT_GONE', { message: 'm', code: 'client_gone' }),
      // @ts-expect-error the named constructors take their own entry's codes only
      () => invalidRequest('m', null, 'model_not_found'),
      // @ts-expect-error likewise
      () => forbidden('m', 'not_found'),
      // @ts-expect-error an attempt record's code is a catalogue code
      () => attemptRecord('m', 'c', 502, 'transient', 'e', 0, 'upstream_error'),
    ];
    // The same calls at run time build errors with whatever they were given: the types are the guard.
    expect(refused).toHaveLength(9);
  });
});
