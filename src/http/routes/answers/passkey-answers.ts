// What the passkey and linked-identity routes answer (src/http/routes/api-passkey-routes.ts): WebAuthn
// options as @simplewebauthn/server generates them (the JSON forms of the WebAuthn Level 3 dictionaries,
// which @simplewebauthn/browser takes), a passkey as passkeyView shows it, the linked identities.
import { z } from 'zod';
import { listOf, rowId } from './common-answers.ts';

const userVerification = z.enum(['discouraged', 'preferred', 'required']);
const hints = z.array(z.enum(['hybrid', 'security-key', 'client-device']));
/** A credential already registered (PublicKeyCredentialDescriptorJSON: type 'public-key', transports as the browser reported them). */
const credentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });

/** navigator.credentials.get's options (PublicKeyCredentialRequestOptionsJSON). */
export const passkeySignInOptionsAnswer = z.object({
  challenge: z.string(),
  timeout: z.number().int().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: userVerification.optional(),
  hints: hints.optional(),
});

/** navigator.credentials.create's options (PublicKeyCredentialCreationOptionsJSON). */
export const passkeyRegistrationOptionsAnswer = z.object({
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
  timeout: z.number().int().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z.object({
    authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
    requireResidentKey: z.boolean().optional(),
    residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
    userVerification: userVerification.optional(),
  }).optional(),
  hints: hints.optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

export const passkeyAnswer = z.object({ id: rowId, name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });
export const passkeysAnswer = listOf(passkeyAnswer);

export const identitiesAnswer = listOf(z.object({
  id: rowId,
  provider: z.string(),
  provider_slug: z.string(),
  kind: z.enum(['oidc', 'github']),
  /** A disabled provider's identity no longer signs in. */
  provider_enabled: z.boolean(),
  email: z.string().nullable(),
  linked_at: z.string(),
  last_used_at: z.string(),
}));
