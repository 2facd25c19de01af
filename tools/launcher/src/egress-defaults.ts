import { parseEgressAllow } from '@inquest/egress';

/** A port the all-in-one process itself listens on, and what answers there. */
export interface OwnPort {
  port: number;
  kind: 'gateway' | 'gRPC' | 'metrics';
  service?: string;
}

/** The launcher's own listeners, from its configuration at start: one entry per port. */
export function launcherOwnPorts(listeners: {
  gateway: number;
  grpc: Record<string, number>;
  metrics: number[];
}): OwnPort[] {
  const own: OwnPort[] = [{ port: listeners.gateway, kind: 'gateway' }];
  for (const [service, port] of Object.entries(listeners.grpc))
    own.push({ port, kind: 'gRPC', service });
  for (const port of listeners.metrics) own.push({ port, kind: 'metrics' });
  return own.filter((o, i) => o.port > 0 && own.findIndex((x) => x.port === o.port) === i);
}

/**
 * INQUEST_EGRESS_ALLOW for the services of the all-in-one: loopback allowed (the contract: its
 * demo tool server lives there), minus every port of `own` on 127.0.0.0/8 and ::1 (`!` entries,
 * checked before any allow entry, so `extra` cannot reopen them), plus `extra` (the user's
 * INQUEST_EGRESS_ALLOW).
 */
export function allInOneEgressAllow(own: OwnPort[], extra: string | undefined): string {
  const deny = own.flatMap(({ port, kind, service }) => {
    const why = `${kind} port of this Inquest${service ? ` (${service})` : ''}`;
    return [`!127.0.0.0/8:${port}=${why}`, `![::1]:${port}=${why}`];
  });
  return ['127.0.0.0/8', '::1', ...parseEgressAllow(extra), ...deny].join(',');
}

/** The start banner's egress line: what is allowed, and what is refused. */
export function egressBanner(own: OwnPort[], extra: string | undefined): string {
  const byKind = new Map<string, number[]>();
  for (const { port, kind } of own) byKind.set(kind, [...(byKind.get(kind) ?? []), port]);
  const ports = [...byKind].map(([kind, list]) => `${kind} ${list.join(', ')}`).join('; ');
  const added = parseEgressAllow(extra);
  return (
    'Egress: loopback allowed (127.0.0.0/8, ::1: the demo tool server, your own receivers) ' +
    `except this Inquest's own ports (${ports}); private, link-local, CGNAT, multicast and ` +
    'cloud metadata addresses refused' +
    (added.length
      ? `, except INQUEST_EGRESS_ALLOW: ${added.join(', ')}`
      : ' (INQUEST_EGRESS_ALLOW opens more)')
  );
}
