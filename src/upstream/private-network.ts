// Which addresses are on a private, loopback, link-local or shared (CGNAT) network: the gateway fetches
// image URLs and reaches MCP servers there only when explicitly allowed (no server-side request forgery).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const privateRanges = new BlockList();
for (const [address, prefix] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['127.0.0.0', 8], ['169.254.0.0', 16], ['0.0.0.0', 8], ['100.64.0.0', 10]] as const) privateRanges.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::', 128]] as const) privateRanges.addSubnet(address, prefix, 'ipv6');

export function isPrivateAddress(address: string, family: number): boolean {
  return privateRanges.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The host's addresses (itself when it is an IP literal, brackets removed); rejects when it does not resolve. */
export async function addressesOf(hostname: string): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? [{ address: host, family: isIP(host) }] : lookup(host, { all: true });
}
