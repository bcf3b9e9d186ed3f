// IP allowlists as CIDR lists, matched with node's BlockList (native, IPv4 and IPv6).
import { BlockList, isIP } from 'node:net';

interface ParsedCidr { address: string; prefix: number; family: 'ipv4' | 'ipv6' }

function parseCidr(text: string): ParsedCidr | null {
  const [address = '', prefixText] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export function isValidCidr(text: string): boolean {
  return parseCidr(text) !== null;
}

/** A compiled allowlist; `allows` is called on every request of a key that has one. */
export interface IpAllowlist { allows(ip: string): boolean }

export function compileIpAllowlist(cidrs: readonly string[]): IpAllowlist {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return {
    allows(ip: string): boolean {
      const address = unmapIpv4(ip);
      const version = isIP(address);
      if (version === 0) return false;
      return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** Sockets on dual-stack listeners report IPv4 clients as ::ffff:a.b.c.d; allowlists name them as IPv4. */
export function unmapIpv4(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}
