/**
 * The template variables of the round23 (r23b) rules (cause-catalog.data.ts, its "round23 (r23b)"
 * block): the TLS Secret an ingress controller could not parse and the hosts it serves, the
 * OpenTelemetry Collector component a new version no longer ships, and who holds the Liquibase
 * changelog lock a starting pod waits for.
 */
import type { FindingContext } from './finding-vars';
import { servicePorts } from './model';
import { clip } from './text';

type Vars = Record<string, string>;

/** the Secret the controller names near its "no certificate PEM data found" line, and its hosts */
function tlsNotPem({ f, model }: FindingContext): Vars {
  const named = (t: string) =>
    /Error getting SSL certificate "([^"]+\/[^"]+)"/.exec(t)?.[1] ??
    /local SSL certificate (\S+\/[\w.-]+) was not found/.exec(t)?.[1];
  const log = model.logs.find((l) => l.pod === f.object?.name) ?? model.logs[0];
  const lines = [...(log?.lines ?? []), ...model.logs.flatMap((l) => l.lines)];
  const secret = lines.map((x) => named(x.text)).find(Boolean);
  if (!secret) return { tls_pem_secret: '', tls_pem_hosts: '', tls_pem_data: '' };
  const [ns, name] = secret.split('/') as [string, string];
  const ingresses = model
    .list('ingress', ns)
    .filter((i) => (i.fields['tlsSecrets'] ?? '').split(',').includes(name));
  const hosts = [...new Set(ingresses.flatMap((i) => (i.fields['hosts'] ?? '').split(',')))]
    .filter(Boolean)
    .join(', ');
  const exists = model.get('secret', name, ns);
  return {
    tls_pem_secret: ` ${secret}`,
    tls_pem_hosts: ingresses.length
      ? ` of Ingress ${ingresses.map((i) => i.name).join(', ')}${hosts ? ` (${hosts})` : ''}`
      : '',
    tls_pem_data: exists ? `; the Secret ${secret} exists, but its content is not PEM` : '',
  };
}

/** component types the OpenTelemetry Collector removed, the version that removed them and the replacement */
const OTEL_REMOVED: Record<string, { since: string; by: string }> = {
  'exporters/logging': { since: 'v0.111.0', by: 'debug' },
};

function otelComponent({ f, model, pod, container }: FindingContext): Vars {
  const kind = f.groups['otel_kind'] ?? '';
  const type = f.groups['otel_type'] ?? '';
  const singular = kind.replace(/s$/, '');
  const removed = OTEL_REMOVED[`${kind}/${type}`];
  const image = container?.image ?? pod?.containers[0]?.image;
  const valid = /valid values: \[([^\]]*)\]/.exec(f.fact)?.[1]?.split(/\s+/) ?? [];
  const configMaps = pod
    ? model
        .list('configmap', pod.namespace)
        .filter((c) => new RegExp(`\\b${type}\\b`).test(c.fields['data'] ?? ''))
        .map((c) => c.name)
    : [];
  return {
    otel_singular: singular,
    otel_image: image ? ` (${image})` : '',
    otel_removed: removed
      ? `: the ${type} ${singular} was removed in ${removed.since} and replaced by the ${removed.by} ${singular}`
      : '',
    otel_replacement:
      removed && (!valid.length || valid.includes(removed.by))
        ? `; for ${type} that is the ${removed.by} ${singular}`
        : '',
    otel_config: configMaps.length ? ` (ConfigMap ${configMaps.join(', ')})` : '',
  };
}

/**
 * Who holds the changelog lock: a DATABASECHANGELOGLOCK row a log shows (id | locked | lockgranted
 * | lockedby, locked true), whether that holder still runs, and what ended its node.
 */
function liquibaseHolder({ f, model }: FindingContext): Vars {
  const nodeEnd = model.events.find(
    (e) =>
      /SpotInterrupt|Preempt|TerminationNotice/i.test(e.reason ?? '') ||
      /Spot Instance Interruption|preempted/i.test(e.message),
  );
  for (const l of model.logs) {
    const header = l.lines.findIndex((x) =>
      /\blocked\b.*\blockgranted\b.*\blockedby\b/i.test(x.text),
    );
    if (header < 0) continue;
    for (const x of l.lines.slice(header + 1, header + 4)) {
      const m = /^\s*\d+\s*\|\s*(?:t|true|1)\s*\|\s*([^|]+?)\s*\|\s*(.+?)\s*$/i.exec(x.text);
      if (!m) continue;
      const holder = m[2]!;
      const holderPod = /^([a-z0-9][a-z0-9.-]*)/.exec(holder)?.[1] ?? '';
      const gone = holderPod && !model.list('pod').some((p) => p.name === holderPod);
      const killed = model.events.find(
        (e) => e.object?.name === holderPod && /Killing|Evicted|Preempt/i.test(e.reason ?? ''),
      );
      const why = gone
        ? `; that pod no longer exists${killed ? ` (killed${nodeEnd ? ` when its node went away: "${clip(nodeEnd.message, 160)}"` : ''})` : nodeEnd ? ` (a node was interrupted: "${clip(nodeEnd.message, 160)}")` : ''}, so it died mid-migration and never released the lock`
        : '';
      return {
        liquibase_holder: ` by ${holder} since ${m[1]} (DATABASECHANGELOGLOCK read by ${l.pod ?? 'a job'}: locked = true)${why}`,
      };
    }
  }
  // no lock row read: a pod of the same ReplicaSet that started, was killed and no longer exists
  // (the first pod of the rollout runs the migration and takes the lock)
  const rs = /^(.+)-[a-z0-9]{5}$/.exec(f.object?.name ?? '')?.[1];
  const pods = new Set(model.list('pod').map((p) => p.name));
  const killed = rs
    ? model.events.find(
        (e) =>
          e.object?.name.startsWith(`${rs}-`) &&
          !pods.has(e.object.name) &&
          /Killing|Evicted|Preempt/i.test(e.reason ?? ''),
      )
    : undefined;
  if (killed)
    return {
      liquibase_holder: ` (the DATABASECHANGELOGLOCK row stays locked = true), most likely by ${killed.object!.name}: a pod of the same rollout that was stopped ("${clip(killed.message, 120)}"${nodeEnd ? `; its node was interrupted: "${clip(nodeEnd.message, 160)}"` : ''}) and no longer exists, so it died mid-migration and never released the lock`,
    };
  return { liquibase_holder: ' (the DATABASECHANGELOGLOCK row stays locked = true)' };
}

/** the HPAs the controller names as controlling the same pods, and which of them KEDA made */
function ambiguousHpas({ f, model }: FindingContext): Vars {
  const text = [f.fact, ...model.list('hpa').map((h) => JSON.stringify(h.fields))].join(' ');
  const list = /controlled by multiple HPAs: \[([^\]]*)\]/.exec(text)?.[1]?.split(/[\s,]+/) ?? [];
  const names = list.filter(Boolean).map((x) => x.split('/').pop()!);
  if (names.length < 2) return { hpa_pair: '', hpa_other: '' };
  // KEDA names the HPA it creates for a ScaledObject keda-hpa-<ScaledObject>
  const keda = names.find((n) => n.startsWith('keda-hpa-'));
  const other = names.filter((n) => n !== keda);
  return {
    hpa_pair: `: ${names.join(' and ')}${keda ? `, where ${keda} is the HPA KEDA created for ScaledObject ${keda.slice('keda-hpa-'.length)} and ${other.join(', ')} is a second HPA over the same pods` : ''}`,
    hpa_other: ` ${keda ? other.join(', ') : names.slice(1).join(', ')}`,
  };
}

/** the Service behind the address the client failed on, and the name of that port */
function meshHttpPort({ model, names }: FindingContext): Vars {
  const lines = model.logs
    .filter((l) => !l.pod || names.has(l.pod))
    .flatMap((l) => l.lines.map((x) => x.text));
  for (const t of [...lines].reverse()) {
    if (!/codec_error|invalid (?:reply|response)|dial tcp|\baddr"?[:=]/.test(t)) continue;
    for (const m of t.matchAll(/\b(\d{1,3}(?:\.\d{1,3}){3}):(\d+)\b/g)) {
      const svc = model.list('service').find((x) => x.fields['clusterIP'] === m[1]);
      if (!svc) continue;
      const port = servicePorts(svc).find((p) => String(p.port) === m[2]);
      const ref = `${svc.namespace ? `${svc.namespace}/` : ''}${svc.name}`;
      return {
        mesh_dest: ` ${m[1]}:${m[2]} (Service ${ref})`,
        mesh_port: port?.name
          ? `: Service ${ref} names port ${m[2]} "${port.name}"${port.appProtocol ? ` (appProtocol ${port.appProtocol})` : ''}, a port name that selects HTTP`
          : '',
        mesh_port_fix: ` ${m[2]} of Service ${ref}${port?.name ? ` (now "${port.name}")` : ''}`,
      };
    }
  }
  return { mesh_dest: '', mesh_port: '', mesh_port_fix: '' };
}

export const R23B_VARS: Record<string, (x: FindingContext) => Vars> = {
  ingress_tls_secret_not_pem: tlsNotPem,
  otel_collector_unknown_component: otelComponent,
  liquibase_changelog_lock_held: liquibaseHolder,
  hpa_ambiguous_selector: ambiguousHpas,
  mesh_http_on_tcp_port: meshHttpPort,
};
