// Encrypts upstream credentials at rest with AES-256-GCM under a key derived from GATEWAY_SECRET.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(sealed: string): string;
}

export function createSecretBox(gatewaySecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', gatewaySecret, 'model-gateway', 'upstream-credentials', 32));
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unrecognised encrypted value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('Cannot decrypt an upstream credential: GATEWAY_SECRET differs from the one it was stored with');
      }
    },
  };
}
