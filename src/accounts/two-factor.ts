// Two-factor sign-in with TOTP (RFC 6238, otplib) and single-use recovery codes. Secrets are encrypted
// with the gateway's secret box; a code is accepted at most once (the last accepted time step is stored and
// moved forward with a conditional update, so two instances cannot both accept it).
import { randomBytes } from 'node:crypto';
import type { AccountsDeps } from './accounts-deps.ts';
import type { UserRow } from '../db/schema.ts';
import { hashToken } from './sessions.ts';
import { invalidRequest } from '../gateway-errors.ts';
import { advanceTotpStep, clearTotp, enableTotp, setPendingTotpSecret, useRecoveryCode } from '../db/repositories/two-factor.ts';

const ISSUER = 'Model gateway';

// Loaded on first use: otplib and qrcode cost ~2 MB of heap that a gateway without 2FA users never needs.
const loadOtp = () => import('otplib');
const loadQrCode = () => import('qrcode').then((module) => module.default);
const RECOVERY_CODES = 10;

export async function startTwoFactorSetup(deps: AccountsDeps, user: UserRow): Promise<{ secret: string; otpauth_url: string; qr: string }> {
  if (user.totp_secret_encrypted) throw invalidRequest('Two-factor sign-in is already on. Turn it off first to set it up again.', null, 'two_factor_already_enabled');
  const { generateSecret, generateURI } = await loadOtp();
  const secret = generateSecret();
  await setPendingTotpSecret(deps.db, user.id, deps.secrets.encrypt(secret));
  const otpauthUrl = generateURI({ issuer: ISSUER, label: user.email ?? user.name, secret });
  return { secret, otpauth_url: otpauthUrl, qr: await (await loadQrCode()).toDataURL(otpauthUrl) };
}

/** Turns 2FA on when the code matches the pending secret; returns the recovery codes (shown once). */
export async function enableTwoFactor(deps: AccountsDeps, user: UserRow, code: string): Promise<string[]> {
  if (user.totp_secret_encrypted) throw invalidRequest('Two-factor sign-in is already on.', null, 'two_factor_already_enabled');
  if (!user.totp_pending_encrypted) throw invalidRequest('Start the set-up first (POST /api/me/2fa/setup).', null, 'two_factor_not_set_up');
  const secret = deps.secrets.decrypt(user.totp_pending_encrypted);
  const result = await checkTotp(secret, code, null);
  if (result === null) throw invalidRequest('The code is wrong or expired.', 'code', 'invalid_code');
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await enableTotp(deps.db, user.id, user.totp_pending_encrypted, result, codes.map(hashRecoveryCode));
  return codes;
}

export async function disableTwoFactor(deps: AccountsDeps, user: UserRow, code: string): Promise<void> {
  if (!user.totp_secret_encrypted) throw invalidRequest('Two-factor sign-in is not on.', null, 'two_factor_not_enabled');
  if (!await acceptSecondFactor(deps, user, code)) throw invalidRequest('The code is wrong, expired or already used.', 'code', 'invalid_code');
  await clearTwoFactor(deps, user.id);
}

/** Also used by administrators ("reset two-factor"). */
export async function clearTwoFactor(deps: Pick<AccountsDeps, 'db'>, userId: number): Promise<void> {
  await clearTotp(deps.db, userId);
}

/** A TOTP code (6 digits) or an unused recovery code; true when accepted (and now spent). */
export async function acceptSecondFactor(deps: AccountsDeps, user: UserRow, code: string): Promise<boolean> {
  const trimmed = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(trimmed)) {
    if (!user.totp_secret_encrypted) return false;
    const step = await checkTotp(deps.secrets.decrypt(user.totp_secret_encrypted), trimmed, user.totp_last_step);
    if (step === null) return false;
    return advanceTotpStep(deps.db, user.id, step);
  }
  return useRecoveryCode(deps.db, user.id, hashRecoveryCode(trimmed));
}

/** The accepted time step, or null. One step of clock drift either way is tolerated. */
async function checkTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const { verify } = await loadOtp();
  const result = await verify({ secret, token: code, epochTolerance: 30, ...(afterStep !== null ? { afterTimeStep: afterStep } : {}) });
  // verify() covers TOTP and HOTP; for TOTP a valid result carries the time step it matched.
  return result.valid && 'timeStep' in result ? (result as { timeStep: number }).timeStep : null;
}

function newRecoveryCode(): string {
  const raw = randomBytes(8).toString('hex');
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
}

const hashRecoveryCode = (code: string) => hashToken(code.toLowerCase().replace(/[^0-9a-f]/g, ''));
