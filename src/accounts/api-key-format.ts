// Gateway API keys: `sk-` + 48 random base62 characters. Stored only as SHA-256 plus a display prefix.
import { hash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 48;
/** At least 40 base62 characters after `sk-`; nothing else (no dashes: upstream keys like sk-proj-… are refused). */
const GATEWAY_KEY_PATTERN = /^sk-[0-9A-Za-z]{40,128}$/;

export function generateApiKey(): string {
  let key = 'sk-';
  for (let i = 0; i < RANDOM_LENGTH; i++) key += BASE62[randomInt(62)];
  return key;
}

export function looksLikeGatewayKey(key: string): boolean {
  return GATEWAY_KEY_PATTERN.test(key);
}

/** One-shot hash: no Hash object per call, which matters as it runs on every request. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What lists show: enough to recognise a key, far too little to use it. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}
