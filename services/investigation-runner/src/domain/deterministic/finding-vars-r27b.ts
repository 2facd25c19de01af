/**
 * The template variables of the round27 (r27b) rules (cause-catalog.data.ts, its "round27 (r27b)"
 * block): the Certificates and Ingresses waiting for an issuer that cannot register its ACME
 * account, and the suspended retention CronJob of a store at its shard limit.
 */
import type { FindingContext } from './finding-vars';
import { jsonField, type ClusterModel } from './model';
import type { ObjectView } from './observe';

type Vars = Record<string, string>;

/** the issuer the finding is about, what it was refused for and what waits for it */
function acmeIssuer(x: FindingContext): Vars {
  const { model, f } = x;
  const o = f.object;
  const kind = /^clusterissuer$/i.test(o?.kind ?? '') ? 'ClusterIssuer' : 'Issuer';
  const name = o?.name ?? '';
  const issuer = model.get(kind.toLowerCase(), name, o?.namespace) ?? o;
  const acme = jsonField(issuer as ObjectView | undefined, 'acme');
  const email: string | undefined = acme['email'];
  const forbidden = /forbidden domain \\?"([^"\\]+)/.exec(f.fact ?? '')?.[1];
  const names = (c: ObjectView) => {
    const ref = jsonField(c, 'issuerRef');
    return (
      ref['name'] === name &&
      (kind === 'ClusterIssuer') === /^ClusterIssuer$/i.test(ref['kind'] ?? '')
    );
  };
  const certs = model.list('certificate').filter(names);
  const ingresses = model.list('ingress').filter((i) => {
    const a = jsonField(i, 'annotations');
    return (
      (kind === 'ClusterIssuer'
        ? a['cert-manager.io/cluster-issuer']
        : a['cert-manager.io/issuer']) === name
    );
  });
  const waiting = [
    ...certs
      .filter(
        (c) =>
          c.fields['ready'] !== 'True' &&
          !c.conditions.some((k) => k.type === 'Ready' && k.status === 'True'),
      )
      .map((c) => `Certificate ${c.name}${c.namespace ? ` (namespace ${c.namespace})` : ''}`),
    ...ingresses.map((i) => {
      const hosts = (i.fields['hosts'] ?? i.fields['host'] ?? '').trim();
      return `Ingress ${i.name}${hosts ? ` (${hosts})` : ''}`;
    }),
  ];
  return {
    issuer_ref: `${kind} ${name}`,
    acme_contact: email
      ? ` for the contact email ${email} in its spec.acme.email`
      : forbidden
        ? ` for the contact email of its spec.acme.email (the domain ${forbidden} is not accepted)`
        : '',
    acme_contact_fix: email ? ` (spec.acme.email ${email}: a real, reachable address)` : '',
    issued_for: waiting.length
      ? `${waiting.slice(0, 4).join(', ')} ${waiting.length > 1 ? 'are' : 'is'} never issued: the TLS Secret does not exist and the ingress controller serves its default (self-signed "Fake") certificate instead`
      : 'the Certificates that name it are never issued: their TLS Secrets do not exist and the ingress controller serves its default (self-signed "Fake") certificate instead',
  };
}

const RETENTION = /clean|curator|retention|prune|purge|delete|rotat|expire|housekeep|ilm/i;

/** a suspended CronJob of the logging pod's namespace that deletes old data (its name or image) */
function shardRetention(x: FindingContext): Vars {
  const ns = x.pod?.namespace ?? x.f.object?.namespace;
  const job = x.model
    .list('cronjob', ns)
    .filter((c) => c.fields['suspend'] === 'true')
    .find((c) => RETENTION.test(c.name) || c.images.some((i) => RETENTION.test(i)));
  if (!job) return { shard_retention: '', shard_retention_fix: '' };
  const last = job.fields['lastSuccessfulTime'] ?? job.fields['lastScheduleTime'];
  return {
    shard_retention: `. Old indices are not deleted: the cleanup CronJob ${job.name} is suspended (spec.suspend: true)${last ? `, its last run ${last}` : ''}, so the index count has grown to the limit`,
    shard_retention_fix: ` (resume the cleanup CronJob ${job.name}: \`kubectl patch cronjob ${job.name} -p '{"spec":{"suspend":false}}'\`, and run it once now)`,
  };
}

/**
 * The Ingress (or Service) that asks external-dns for the conflicting host, and the other hosts
 * of the rejected batch ("Desired change: CREATE <host> <type>" lines of the same log).
 */
function changeBatch(x: FindingContext): Vars {
  const host = (x.f.groups['conflict_host'] ?? '').replace(/\.$/, '').toLowerCase();
  const owners = x.model.list('ingress').filter((i) =>
    (i.fields['hosts'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .includes(host),
  );
  const logs = x.model.logs.filter(
    (l) => l.pod && (x.names.has(l.pod) || /^external-dns/.test(l.pod)),
  );
  const batch = new Set<string>();
  for (const l of logs)
    for (const line of l.lines) {
      const m = /Desired change: (?:CREATE|UPSERT|UPDATE) (\S+?)\.? (?:A|AAAA|CNAME)\b/.exec(
        line.text,
      );
      if (m && m[1]!.toLowerCase() !== host) batch.add(m[1]!);
    }
  const owner = owners[0];
  return {
    conflict_source: owner
      ? `; external-dns wants ${host} for Ingress ${owner.name}${owner.namespace ? ` (namespace ${owner.namespace})` : ''}`
      : '',
    conflict_fix: owner
      ? ` Ingress ${owner.name}${owner.namespace ? ` in ${owner.namespace}` : ''}`
      : ' its Ingress',
    batch_hosts: batch.size ? ` (${[...batch].slice(0, 5).join(', ')})` : '',
  };
}

/**
 * The Ingress an ingress-nginx "risky annotation" line is about (the line before it names it, else
 * the Ingresses carrying the group's annotation), the hosts it serves, the controller's version
 * (its image tag, else "Release:" in its log) and its ConfigMap's annotations-risk-level.
 */
function riskyAnnotation(x: FindingContext): Vars {
  const group = x.f.groups['annotation_group'] ?? '';
  const key = `nginx.ingress.kubernetes.io/${group.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}`;
  // the controller's logs that say it (the finding is about the workload behind the Ingress)
  const logs = x.model.logs.filter(
    (l) =>
      l.pod &&
      l.lines.some((line) => line.text.includes(`annotation group ${group} contains risky`)),
  );
  let named: { ns: string; name: string } | undefined;
  let version: string | undefined;
  for (const l of logs)
    l.lines.forEach((line, i) => {
      version ??= /\bRelease:\s+(v\d+\.\d+\.\d+)/.exec(line.text)?.[1];
      if (!named && line.text.includes(`annotation group ${group} contains risky`)) {
        const m = /ingress="([a-z0-9][\w.-]*)\/([\w.-]+)"/.exec(l.lines[i - 1]?.text ?? '');
        if (m) named = { ns: m[1]!, name: m[2]! };
      }
    });
  const carrying = x.model
    .list('ingress')
    .filter((i) => jsonField(i, 'annotations')[key] !== undefined);
  const ing = named
    ? (x.model.get('ingress', named.name, named.ns) ?? carrying.find((i) => i.name === named!.name))
    : carrying[0];
  const name = named
    ? `Ingress ${named.name} (namespace ${named.ns})`
    : ing
      ? `Ingress ${ing.name}${ing.namespace ? ` (namespace ${ing.namespace})` : ''}`
      : 'the Ingress';
  const controllers = logs
    .map((l) => x.model.get('pod', l.pod!, l.namespace))
    .filter((p): p is ObjectView => !!p);
  const image = controllers
    .flatMap((p) => p.images)
    .find((i) => /ingress-nginx|nginx-ingress/.test(i));
  version ??= image ? /:(v?\d+\.\d+\.\d+)/.exec(image)?.[1] : undefined;
  const cm = x.model
    .list('configmap', controllers[0]?.namespace ?? logs[0]?.namespace)
    .find((m) => jsonField(m, 'data')['allow-snippet-annotations'] !== undefined);
  const data = jsonField(cm, 'data');
  const level = data['annotations-risk-level'];
  return {
    risky_ingress: name,
    annotation_key: key,
    risky_hosts: (ing?.fields['hosts'] ?? '').trim() || 'its hosts',
    controller_version: version ? ` (ingress-nginx ${version})` : '',
    risk_level_setting: cm
      ? level
        ? ` (ConfigMap ${cm.name} sets annotations-risk-level: ${level})`
        : ` (ConfigMap ${cm.name} has allow-snippet-annotations: "${data['allow-snippet-annotations']}" and no annotations-risk-level)`
      : '',
  };
}

export const R27B_VARS: Record<string, (x: FindingContext) => Vars> = {
  cert_manager_acme_account_refused: acmeIssuer,
  elasticsearch_max_shards_open: shardRetention,
  external_dns_change_batch_rejected: changeBatch,
  ingress_nginx_risky_annotation: riskyAnnotation,
};

/**
 * The workload a cert-manager (Cluster)Issuer that is not Ready holds up: the one behind an
 * Ingress that asks it for its certificate (cert-manager.io/(cluster-)issuer) and whose
 * Certificate is not Ready (or has none yet); undefined for any other object.
 */
export function issuerHeldWorkload(
  model: ClusterModel,
  o: ObjectView,
  backing: (ing: ObjectView) => string | undefined,
): string | undefined {
  if (!/^(?:cluster)?issuer$/i.test(o.kind)) return undefined;
  if (!o.conditions.some((c) => c.type === 'Ready' && c.status === 'False')) return undefined;
  const key = /^clusterissuer$/i.test(o.kind)
    ? 'cert-manager.io/cluster-issuer'
    : 'cert-manager.io/issuer';
  const cluster = /^clusterissuer$/i.test(o.kind);
  // its Certificates (issuerRef) that are not Ready, and the Ingresses they are for
  const waiting = model.list('certificate').filter((c) => {
    const ref = jsonField(c, 'issuerRef');
    return (
      ref['name'] === o.name &&
      cluster === /^ClusterIssuer$/i.test(ref['kind'] ?? '') &&
      (cluster || !o.namespace || c.namespace === o.namespace) &&
      c.fields['ready'] !== 'True' &&
      !c.conditions.some((k) => k.type === 'Ready' && k.status === 'True')
    );
  });
  const viaCertificate = (i: ObjectView) =>
    waiting.some(
      (c) =>
        c.namespace === i.namespace &&
        ((c.owner?.kind === 'ingress' && c.owner.name === i.name) ||
          (i.fields['tlsSecrets'] ?? '')
            .split(',')
            .includes(c.fields['secretName'] ?? c.fields['secrets'] ?? '')),
    );
  for (const i of model.list('ingress')) {
    if (viaCertificate(i)) return backing(i);
    if (jsonField(i, 'annotations')[key] !== o.name) continue;
    if (!cluster && o.namespace && i.namespace !== o.namespace) continue;
    const secrets = (i.fields['tlsSecrets'] ?? '').split(',').filter(Boolean);
    const ready = model
      .list('certificate', i.namespace)
      .some(
        (c) =>
          secrets.includes(c.fields['secretName'] ?? c.fields['secrets'] ?? c.name) &&
          (c.fields['ready'] === 'True' ||
            c.conditions.some((k) => k.type === 'Ready' && k.status === 'True')),
      );
    if (!ready) return backing(i);
  }
  return undefined;
}

/**
 * The Ingress an ingress controller's line says it leaves out because of a risky annotation, named
 * by the line before it (ingress-nginx: '"Found valid IngressClass" ingress="ns/name"').
 */
export function refusedIngress(
  model: ClusterModel,
  line: string,
  before: string | undefined,
): ObjectView | undefined {
  if (!/contains risky annotation/.test(line)) return undefined;
  const m = /ingress="([a-z0-9][\w.-]*)\/([\w.-]+)"/.exec(before ?? '');
  return m ? model.get('ingress', m[2]!, m[1]) : undefined;
}
