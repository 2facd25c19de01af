import {
  buildAddressPolicy,
  deniedReason,
  isHostAllowed,
  parseEgressAllow,
  refusalReason,
} from './address-policy';

describe('refusalReason', () => {
  const none = buildAddressPolicy([]);

  it.each([
    '127.0.0.1',
    '127.255.1.2',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.1.1',
    '100.64.0.1',
    '100.100.100.200',
    '224.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
  ])('refuses %s', (ip) => {
    expect(refusalReason(ip, none)).not.toBeNull();
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '172.32.0.1',
  ])('allows public %s', (ip) => {
    expect(refusalReason(ip, none)).toBeNull();
  });

  // issue 16 item 5: http://[::127.0.0.1]:port/ passed the guard (the URL is [::7f00:1])
  it.each([
    ['::127.0.0.1', /IPv4-compatible.*127\.0\.0\.1.*loopback/],
    ['::7f00:1', /IPv4-compatible.*127\.0\.0\.1/],
    ['[::7f00:1]', /IPv4-compatible/],
    ['0:0:0:0:0:0:10.0.0.1', /IPv4-compatible.*private/],
    ['::a9fe:a9fe', /IPv4-compatible.*169\.254\.169\.254/],
    ['::8.8.8.8', /IPv4-compatible.*8\.8\.8\.8$/], // the whole ::/96 range, public too
    ['::0.0.0.2', /IPv4-compatible/],
    ['64:ff9b::127.0.0.1', /NAT64.*127\.0\.0\.1.*loopback/],
    ['64:ff9b::a00:1', /NAT64.*10\.0\.0\.1.*private/],
    ['64:ff9b::169.254.169.254', /NAT64.*cloud metadata/],
    ['64:ff9b::c0a8:101', /NAT64.*192\.168\.1\.1.*private/],
    ['64:ff9b:1::1', /rfc6052/], // the local-use NAT64 prefix (RFC 8215)
    ['2002:7f00:1::', /6to4.*127\.0\.0\.1.*loopback/],
    ['2002:a00:1::1', /6to4.*10\.0\.0\.1.*private/],
    ['2002:a9fe:a9fe::', /6to4.*cloud metadata/],
    ['2002:808:808::1', /6to4.*8\.8\.8\.8/], // deprecated, whatever it embeds
  ])('refuses the IPv4 embedding %s', (ip, reason) => {
    expect(refusalReason(ip, none)).toMatch(reason);
  });

  it('lets NAT64 reach a public IPv4 address (DNS64 in an IPv6-only network)', () => {
    expect(refusalReason('64:ff9b::8.8.8.8', none)).toBeNull();
    expect(refusalReason('64:ff9b::5db8:d822', none)).toBeNull();
  });

  it('an IPv4 allow-list entry does not open its IPv6 embeddings', () => {
    const loopback = buildAddressPolicy(parseEgressAllow('127.0.0.0/8,::1'));
    expect(refusalReason('::ffff:127.0.0.1', loopback)).toBeNull(); // IPv4-mapped is the same host
    for (const ip of ['::127.0.0.1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::'])
      expect(refusalReason(ip, loopback)).not.toBeNull();
  });

  it('allow-list CIDRs exempt addresses, IPv4-mapped IPv6 included', () => {
    const policy = buildAddressPolicy(parseEgressAllow('127.0.0.0/8, ::1 ,10.0.0.5'));
    expect(refusalReason('127.0.0.1', policy)).toBeNull();
    expect(refusalReason('::ffff:127.0.0.1', policy)).toBeNull();
    expect(refusalReason('::1', policy)).toBeNull();
    expect(refusalReason('10.0.0.5', policy)).toBeNull();
    expect(refusalReason('10.0.0.6', policy)).not.toBeNull();
    expect(refusalReason('169.254.169.254', policy)).not.toBeNull();
  });

  it('a range on the allow list does not open the metadata addresses in it; naming one does', () => {
    const ranges = buildAddressPolicy(
      parseEgressAllow('169.254.0.0/16,fd00::/8,100.64.0.0/10,0.0.0.0/0'),
    );
    for (const ip of ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200'])
      expect(refusalReason(ip, ranges)).toBe('cloud metadata address');
    expect(refusalReason('169.254.1.1', ranges)).toBeNull();
    expect(refusalReason('fd00::1', ranges)).toBeNull();
    const exact = buildAddressPolicy(['169.254.170.2', 'fd00:ec2::254']);
    expect(refusalReason('169.254.170.2', exact)).toBeNull();
    expect(refusalReason('fd00:ec2::254', exact)).toBeNull();
    expect(refusalReason('169.254.169.254', exact)).toBe('cloud metadata address');
  });

  it('address:port entries allow that port only', () => {
    const policy = buildAddressPolicy(parseEgressAllow('127.0.0.1:8080,[::1]:9090,10.0.0.0/8:443'));
    expect(refusalReason('127.0.0.1', policy, 8080)).toBeNull();
    expect(refusalReason('::ffff:127.0.0.1', policy, 8080)).toBeNull();
    expect(refusalReason('127.0.0.1', policy, 8081)).toMatch(/loopback.*port 8081/);
    expect(refusalReason('127.0.0.1', policy)).not.toBeNull();
    expect(refusalReason('::1', policy, 9090)).toBeNull();
    expect(refusalReason('::1', policy, 8080)).not.toBeNull();
    expect(refusalReason('10.1.2.3', policy, 443)).toBeNull();
    expect(refusalReason('10.1.2.3', policy, 80)).not.toBeNull();
    expect(refusalReason('169.254.169.254', policy, 443)).not.toBeNull();
    expect(policy.hosts).toEqual([]);
    expect(() => buildAddressPolicy(['127.0.0.1:0'])).toThrow(/invalid port/);
  });

  it('! entries refuse an address:port inside an allowed range, before any allow entry', () => {
    // all-in-one: loopback allowed, its own ports (gateway 8080, a gRPC port 50051) refused
    const policy = buildAddressPolicy(
      parseEgressAllow(
        '127.0.0.0/8,::1,127.0.0.1:8080,!127.0.0.0/8:8080=gateway port of this Inquest,' +
          '![::1]:8080=gateway port of this Inquest,!127.0.0.0/8:50051',
      ),
    );
    expect(refusalReason('127.0.0.1', policy, 9000)).toBeNull(); // a receiver on loopback
    expect(refusalReason('::1', policy, 9000)).toBeNull();
    for (const ip of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::ffff:127.0.0.1'])
      expect(refusalReason(ip, policy, 8080)).toBe(
        'gateway port of this Inquest (egress entry !127.0.0.0/8:8080)',
      );
    expect(refusalReason('::1', policy, 8080)).toBe(
      'gateway port of this Inquest (egress entry ![::1]:8080)',
    );
    expect(refusalReason('127.0.0.1', policy, 50051)).toBe(
      'refused address (egress entry !127.0.0.0/8:50051)',
    );
    expect(deniedReason('127.0.0.1', policy, 50051)).toMatch(/!127\.0\.0\.0\/8:50051/);
    expect(deniedReason('127.0.0.1', policy, 9000)).toBeNull();
    // a port-bound entry refuses a call whose port is not known
    expect(deniedReason('127.0.0.1', policy)).not.toBeNull();
    // ::1 is not denied on 50051 (the entry names IPv4 only), and 0.0.0.0 stays refused anyway
    expect(refusalReason('::1', policy, 50051)).toBeNull();
    expect(refusalReason('0.0.0.0', policy, 9000)).toMatch(/^unspecified address/);
    // the other refused ranges stay refused
    expect(refusalReason('169.254.169.254', policy, 80)).toMatch(/^cloud metadata address/);
    expect(refusalReason('10.0.0.1', policy, 80)).toMatch(/^private address/);
  });

  it('! entries without a port refuse every port; host names cannot be one', () => {
    const policy = buildAddressPolicy(['10.0.0.0/8', '!10.0.0.5']);
    expect(refusalReason('10.0.0.4', policy, 80)).toBeNull();
    expect(refusalReason('10.0.0.5', policy, 80)).toBe('refused address (egress entry !10.0.0.5)');
    expect(refusalReason('10.0.0.5', policy, 443)).not.toBeNull();
    expect(() => buildAddressPolicy(['!localhost:8080'])).toThrow(/names no address/);
    expect(() => buildAddressPolicy(['!127.0.0.1:0'])).toThrow(/invalid port/);
  });

  it('host names and wildcards on the allow list', () => {
    const policy = buildAddressPolicy(['localhost', '*.svc.cluster.local']);
    expect(isHostAllowed('LOCALHOST', policy)).toBe(true);
    expect(isHostAllowed('tools.svc.cluster.local', policy)).toBe(true);
    expect(isHostAllowed('svc.cluster.local.evil.com', policy)).toBe(false);
    expect(isHostAllowed('example.com', policy)).toBe(false);
  });

  it('rejects things that are not addresses', () => {
    expect(refusalReason('not-an-ip', buildAddressPolicy([]))).not.toBeNull();
  });
});
