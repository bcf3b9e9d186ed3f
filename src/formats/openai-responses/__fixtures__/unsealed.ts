// For tests: a copy of a value whose gateway-sealed encrypted_content strings are opened, so expectations can
// name the signature ('sig-1') or redacted block ('redacted:ENC') they carry (seals differ on every write).
import { openReasoning } from '../openai-responses-reasoning-seal.ts';

export function unsealed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(unsealed) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'encrypted_content' && typeof inner === 'string') {
      const seal = openReasoning(inner);
      out[key] = seal === null ? `unopened:${inner}` : seal.redactedData !== undefined ? `redacted:${seal.redactedData}` : seal.signature;
    } else out[key] = unsealed(inner);
  }
  return out as T;
}
