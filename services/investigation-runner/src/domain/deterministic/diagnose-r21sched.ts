/**
 * The rules of round21's scheduling block (cause-catalog.data.ts, "scheduling: who holds the
 * capacity, who evicts (round21, r21sched)") that compare several facts, not one line.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { ingressBackends, INGRESS_CONTROLLER } from './dependencies';
import { jsonField, servicePorts, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import { clip } from './text';

/** the cluster autoscaler's event on a pod it deletes to remove its node */
export const SCALE_DOWN_DELETE = /deleting pod for node scale down/i;

/**
 * A Job's pods deleted by the cluster autoscaler's node scale-down: the ScaleDown event on a
 * pod whose name is a Job's (<job>-<5 characters>, the Job read or named by an event of its own).
 * A Deployment's pod it moves is replaced and nothing is lost: not this.
 */
export function scaleDownEvictedJobs(model: ClusterModel, entry: CauseEntry): Finding[] {
  const byJob = new Map<string, Finding>();
  for (const e of model.events) {
    if (e.reason !== 'ScaleDown' || !SCALE_DOWN_DELETE.test(e.message)) continue;
    const pod = e.object?.name;
    if (!pod || (e.object?.kind && !/^pod$/i.test(e.object.kind))) continue;
    const stem = /^(.+)-[a-z0-9]{5}$/.exec(pod)?.[1];
    if (!stem) continue;
    const ns = e.namespace;
    const isJob =
      !!model.get('job', stem, ns) ||
      model.events.some(
        (x) =>
          /^Job$/i.test(x.object?.kind ?? '') &&
          x.object?.name === stem &&
          (!ns || !x.namespace || x.namespace === ns),
      );
    if (!isJob) continue;
    const k = `${ns ?? ''}/${stem}`;
    const seen = byJob.get(k);
    if (seen) {
      if (!seen.alsoOn?.includes(pod) && seen.object?.name !== pod) (seen.alsoOn ??= []).push(pod);
      continue;
    }
    byJob.set(k, {
      entry,
      object: { kind: 'pod', name: pod, namespace: ns },
      workload: stem,
      fact: e.message.trim(),
      groups: {},
      at: e.last ?? e.first,
      where: 'event',
      source: e.source,
    });
  }
  return [...byJob.values()];
}

/** ingress-nginx's access log line: `"GET / HTTP/1.1" 308 164 ... [shop-storefront-http]` */
const ACCESS_LINE = /"[A-Z]+ \S+ HTTP\/[\d.]+" (\d{3}) [^\n]*?\[([\w.-]+)\]/;

/** the Service port the load balancer's https port reaches (ports by name or number) */
function tlsEndsBeforeController(svc: ObjectView): string | undefined {
  const ports = servicePorts(svc);
  const https = ports.find((p) => p.port === 443 || p.name === 'https');
  const http = ports.find((p) => p.port === 80 || p.name === 'http');
  if (!https || !http) return undefined;
  const target = String(https.targetPort ?? https.port ?? '');
  const plain = String(http.targetPort ?? http.port ?? '');
  // the https port goes to the same container port as http (or to one named http / 80)
  if (target !== plain && !/^(?:http|80)$/.test(target)) return undefined;
  return `port ${https.port ?? 443} -> targetPort ${target}`;
}

/**
 * An Ingress that forces the redirect to https (ingress-nginx's force-ssl-redirect) behind a load
 * balancer that ends TLS and forwards plain HTTP to the controller: the controller sees every
 * request as http and answers 308 to https again, a loop. Only while its access log answers the
 * Ingress's backend 308 (the latest line for it), and not when the controller trusts
 * X-Forwarded-Proto (use-forwarded-headers in its ConfigMap).
 */
export function sslRedirectLoops(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const controllerNs = new Set(
    model
      .list('pod')
      .filter((p) => INGRESS_CONTROLLER.test(p.name))
      .map((p) => p.namespace),
  );
  const access = model.logs
    .filter((l) => l.pod && INGRESS_CONTROLLER.test(l.pod))
    .flatMap((l) => l.lines.map((x) => x.text))
    .map((t) => ({ t, m: ACCESS_LINE.exec(t) }))
    .filter((x): x is { t: string; m: RegExpExecArray } => !!x.m);
  const lbs = model
    .list('service')
    .filter(
      (s) =>
        (controllerNs.has(s.namespace) || INGRESS_CONTROLLER.test(s.name)) &&
        /LoadBalancer|NodePort/.test(s.fields['type'] ?? 'LoadBalancer'),
    )
    .map((s) => ({ s, at: tlsEndsBeforeController(s) }))
    .filter((x): x is { s: ObjectView; at: string } => !!x.at);
  const lb = lbs[0];
  if (!lb) return out;
  const forwarded = model
    .list('configmap')
    .filter((c) => controllerNs.has(c.namespace) || c.namespace === lb.s.namespace)
    .map((c) => ({ c, data: jsonField(c, 'data') }));
  // the controller learns the original scheme from X-Forwarded-Proto or the PROXY protocol
  const trusts = (d: Record<string, string>) =>
    ['use-forwarded-headers', 'use-proxy-protocol'].some((k) => /^"?true"?$/i.test(d[k] ?? ''));
  if (forwarded.some((x) => trusts(x.data))) return out;
  // read: its values, else its keys (a tool server may hide the values)
  const settings = forwarded.find(
    (x) =>
      /controller|nginx/.test(x.c.name) &&
      (x.c.fields['data'] !== undefined ||
        (x.c.fields['keys'] !== undefined &&
          !/\buse-(?:forwarded-headers|proxy-protocol)\b/.test(x.c.fields['keys']))),
  );
  for (const ing of model.list('ingress')) {
    const ann = jsonField(ing, 'annotations');
    const key = Object.keys(ann).find((k) => /\/force-ssl-redirect$/.test(k));
    if (!key || !/^"?true"?$/i.test(ann[key] ?? '')) continue;
    for (const b of ingressBackends(ing)) {
      const upstream = `${ing.namespace ?? ''}-${b.service}-`;
      const lines = access.filter((x) => x.m[2]!.startsWith(upstream));
      const last = lines[lines.length - 1];
      // its access log, when read, answers the backend 308 now; unread, the controller's
      // ConfigMap must have been read (it trusts no forwarded scheme)
      if (last ? last.m[1] !== '308' : !settings) continue;
      const cert = Object.entries(jsonField(lb.s, 'annotations')).find(([k]) =>
        /ssl-cert|certificate|tls-cert/i.test(k),
      );
      out.push({
        entry,
        object: { kind: 'ingress', name: ing.name, namespace: ing.namespace },
        workload: b.service,
        fact: last
          ? clip(last.t.replace(/^\S+Z\s+/, ''), 220)
          : `Ingress ${ing.name}: ${key}: "true"; Service ${lb.s.name}: ${lb.at}`,
        groups: {
          ingress: `${ing.namespace ? `${ing.namespace}/` : ''}${ing.name}`,
          annotation: key,
          lb_service: `${lb.s.namespace ? `${lb.s.namespace}/` : ''}${lb.s.name}`,
          lb_ports: lb.at,
          lb_cert: cert ? ` and carries ${cert[0]} (the load balancer holds the certificate)` : '',
          access: last
            ? `; the controller's access log: "${clip(last.t.replace(/^\S+Z\s+/, ''), 220)}"`
            : '',
          forwarded: settings
            ? `; its ConfigMap ${settings.c.name} sets neither use-forwarded-headers nor use-proxy-protocol, so the controller has no other way to learn the original scheme`
            : '',
          hosts: ing.fields['hosts'] ? ` (${ing.fields['hosts']})` : '',
        },
        at: undefined,
        where: 'log',
        source: ing.source,
      });
      break;
    }
  }
  return out;
}
