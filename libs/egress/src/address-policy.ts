import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** Cloud metadata endpoints that are refused even if their range would otherwise pass. */
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'];

/**
 * Parsed `INQUEST_EGRESS_ALLOW`: CIDRs (or single addresses) that are exempt from the refusal
 * rules, and host names whose resolved addresses are not checked.
 */
export interface AddressPolicy {
  cidrs: Array<[Addr, number]>;
  hosts: string[];
}

/** Splits a comma-separated allow list (`INQUEST_EGRESS_ALLOW`) into its entries. */
export function parseEgressAllow(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function buildAddressPolicy(allow: string[]): AddressPolicy {
  const policy: AddressPolicy = { cidrs: [], hosts: [] };
  for (const raw of allow) {
    const entry = raw.trim();
    if (!entry) continue;
    if (entry.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(entry);
      policy.cidrs.push([
        normalize(addr),
        addr.kind() === 'ipv6' && normalize(addr).kind() === 'ipv4' ? Math.max(0, bits - 96) : bits,
      ]);
    } else if (ipaddr.isValid(entry.replace(/^\[|\]$/g, ''))) {
      const addr = normalize(ipaddr.parse(entry.replace(/^\[|\]$/g, '')));
      policy.cidrs.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else {
      policy.hosts.push(entry.toLowerCase().replace(/\.$/, ''));
    }
  }
  return policy;
}

function normalize(addr: Addr): Addr {
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) must be judged as the IPv4 address it is.
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/** True when the host name itself is on the allow list (exact, or `*.example.com` wildcard). */
export function isHostAllowed(host: string, policy: AddressPolicy): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return policy.hosts.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1)) : p === h));
}

/**
 * Why an address is refused, or null when it may be connected to. Only public unicast
 * addresses pass unless an allow-list CIDR covers them.
 */
export function refusalReason(ip: string, policy: AddressPolicy): string | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return 'not an IP address';
  const addr = ipaddr.process(bare);
  for (const [net, bits] of policy.cidrs) {
    if (net.kind() === addr.kind() && addr.match(net as never, bits)) return null;
  }
  const text = addr.toNormalizedString();
  if (METADATA_ADDRESSES.some((m) => ipaddr.parse(m).toNormalizedString() === text)) {
    return 'cloud metadata address';
  }
  const range = addr.range();
  return range === 'unicast' ? null : `${range} address`;
}
