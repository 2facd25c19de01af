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
  /** network, prefix length and, for an `address:port` entry, the only port it opens */
  cidrs: Array<[Addr, number, number?]>;
  hosts: string[];
  /**
   * `!` entries: network, prefix length, the only port refused (all when absent) and the reason
   * given. Checked before everything else: no allow entry or allowed host name opens them.
   */
  deny?: Array<DenyEntry>;
}

/** A `!address[:port][=reason]` entry of the allow list. */
export interface DenyEntry {
  net: Addr;
  bits: number;
  port?: number;
  /** what the refusal says: the text after `=` (`refused address` without), and the entry */
  reason: string;
}

/** `127.0.0.1:8080`, `10.0.0.0/8:443`, `[::1]:8080`: an allow entry for one port only. */
const WITH_PORT =
  /^(?:\[([0-9a-fA-F:.]+(?:\/\d{1,3})?)\]|(\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?)):(\d{1,5})$/;

/** Splits a comma-separated allow list (`INQUEST_EGRESS_ALLOW`) into its entries. */
export function parseEgressAllow(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Parses an allow list. An entry starting with `!` refuses instead (`!127.0.0.0/8:8080`,
 * `![::1]:8080`, `!10.0.0.5`; `=reason` after it says why): allowed ranges minus these.
 */
export function buildAddressPolicy(allow: string[]): AddressPolicy {
  const policy: AddressPolicy = { cidrs: [], hosts: [], deny: [] };
  for (const raw of allow) {
    let entry = raw.trim();
    if (!entry) continue;
    if (entry.startsWith('!')) {
      policy.deny!.push(parseDeny(entry));
      continue;
    }
    let port: number | undefined;
    const withPort = WITH_PORT.exec(entry);
    if (withPort) {
      entry = (withPort[1] ?? withPort[2])!;
      port = Number(withPort[3]);
      if (port < 1 || port > 65535) throw new Error(`invalid port in egress allow entry ${raw}`);
    }
    const push = (addr: Addr, bits: number) =>
      policy.cidrs.push(port === undefined ? [addr, bits] : [addr, bits, port]);
    if (entry.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(entry);
      push(
        normalize(addr),
        addr.kind() === 'ipv6' && normalize(addr).kind() === 'ipv4' ? Math.max(0, bits - 96) : bits,
      );
    } else if (ipaddr.isValid(entry.replace(/^\[|\]$/g, ''))) {
      const addr = normalize(ipaddr.parse(entry.replace(/^\[|\]$/g, '')));
      push(addr, addr.kind() === 'ipv4' ? 32 : 128);
    } else {
      policy.hosts.push(entry.toLowerCase().replace(/\.$/, ''));
    }
  }
  return policy;
}

function parseDeny(raw: string): DenyEntry {
  const eq = raw.indexOf('=');
  const entry = (eq < 0 ? raw.slice(1) : raw.slice(1, eq)).trim();
  const label = eq < 0 ? '' : raw.slice(eq + 1).trim();
  const reason = `${label || 'refused address'} (egress entry !${entry})`;
  const parsed = buildAddressPolicy([entry]).cidrs[0];
  if (!parsed) throw new Error(`egress deny entry ${raw} names no address or CIDR`);
  const [net, bits, port] = parsed;
  return port === undefined ? { net, bits, reason } : { net, bits, port, reason };
}

/**
 * The reason a `!` entry refuses this address and port, or null. A port-bound entry also refuses
 * a call whose port is not known.
 */
export function deniedReason(ip: string, policy: AddressPolicy, port?: number): string | null {
  if (!policy.deny?.length) return null;
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return 'not an IP address';
  const addr = ipaddr.process(dottedTailToHex(bare));
  for (const d of policy.deny) {
    if (d.port !== undefined && port !== undefined && d.port !== port) continue;
    if (d.net.kind() === addr.kind() && addr.match(d.net as never, d.bits)) return d.reason;
  }
  return null;
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
 * Why an address is refused, or null when it may be connected to. A `!` entry refuses first;
 * then only public unicast addresses pass unless an allow-list CIDR covers them (an
 * `address:port` entry only for that port: a call without `port` is not covered by it).
 */
export function refusalReason(ip: string, policy: AddressPolicy, port?: number): string | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return 'not an IP address';
  const denied = deniedReason(bare, policy, port);
  if (denied) return denied;
  const addr = ipaddr.process(dottedTailToHex(bare));
  // a metadata address hands out cloud credentials: only an entry naming it exactly opens it, not
  // a range that happens to contain it (fd00::/8 of an IPv6 cluster holds fd00:ec2::254)
  const metadata = isMetadata(addr);
  for (const [net, bits, only] of policy.cidrs) {
    if (only !== undefined && only !== port) continue;
    if (metadata && bits < (addr.kind() === 'ipv4' ? 32 : 128)) continue;
    if (net.kind() === addr.kind() && addr.match(net as never, bits)) return null;
  }
  const own = ownReason(addr);
  return own && port !== undefined && policy.cidrs.some((c) => c[2] !== undefined)
    ? `${own} (port ${port} is not allowed)`
    : own;
}

const METADATA_TEXTS = new Set(METADATA_ADDRESSES.map((m) => ipaddr.parse(m).toNormalizedString()));

function isMetadata(addr: Addr): boolean {
  return METADATA_TEXTS.has(addr.toNormalizedString());
}

/** The refusal rules without an allow list. */
function ownReason(addr: Addr): string | null {
  if (isMetadata(addr)) return 'cloud metadata address';
  const range = addr.range();
  if (addr.kind() === 'ipv6' && range !== 'unspecified' && range !== 'loopback') {
    const embedding = embeddedIPv4(addr as ipaddr.IPv6);
    if (embedding) {
      const inner = ownReason(embedding.ipv4);
      const what = `${embedding.kind} address embedding ${embedding.ipv4.toString()}`;
      // IPv4-compatible addresses are deprecated (RFC 4291) and routed unpredictably: never.
      if (embedding.kind === 'IPv4-compatible (::/96)') return inner ? `${what} (${inner})` : what;
      if (inner) return `${what} (${inner})`;
      // 6to4 is deprecated (RFC 7526) and goes through unknown relays, whatever it embeds.
      if (embedding.kind === '6to4 (2002::/16)') return what;
      // NAT64 of a public IPv4 address: how an IPv6-only network reaches it.
      return null;
    }
  }
  return range === 'unicast' ? null : `${range} address`;
}

/**
 * The IPv4 address an IPv6 address carries in one of the embeddings a translator or tunnel
 * would connect to: IPv4-compatible `::a.b.c.d` (::/96), NAT64 `64:ff9b::a.b.c.d` (RFC 6052
 * well-known prefix) and 6to4 `2002:aabb:ccdd::` (2002::/16).
 */
function embeddedIPv4(v6: ipaddr.IPv6): { kind: string; ipv4: ipaddr.IPv4 } | undefined {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (p.slice(0, 6).every((x) => x === 0))
    return { kind: 'IPv4-compatible (::/96)', ipv4: v4(p[6]!, p[7]!) };
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0))
    return { kind: 'NAT64 (64:ff9b::/96)', ipv4: v4(p[6]!, p[7]!) };
  if (p[0] === 0x2002) return { kind: '6to4 (2002::/16)', ipv4: v4(p[1]!, p[2]!) };
  return undefined;
}

/**
 * `::127.0.0.1` as `::7f00:1`: ipaddr.js reads a dotted tail as IPv4-mapped (`::ffff:`),
 * which would judge an IPv4-compatible address as the IPv4 address itself.
 */
function dottedTailToHex(ip: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return ip;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
