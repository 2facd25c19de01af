/**
 * Round31 (r31a) rules that compare objects (cause-catalog.data.ts, its "round31 (r31a)" block).
 *
 * An OpenTelemetry Collector OOMKilled whose pipelines run no memory_limiter processor: nothing
 * refuses data when memory runs short, so what the exporters cannot send (a backend that rate
 * limits or times out) piles up in their retry and sending queues until the container hits its
 * limit. The config read is the collector's own (the ConfigMap its pod mounts).
 *
 * A GKE Ingress whose load balancer marks a Service's backend UNHEALTHY (the controller's
 * ingress.kubernetes.io/backends annotation) while the pods run and are ready: the pods' access
 * log says what the load balancer's health checker (GoogleHC, ELB-HealthChecker) got instead of 200.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { matchesLabels } from '@inquest/kube';
import { selectorOf } from './dependencies';
import { configMapNamesOf, jsonField, type ClusterModel } from './model';
import { clip } from './text';
import type { ObjectView } from './observe/views';

export function r31aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'otel_collector_no_memory_limiter');
  const lb = entries.find((e) => e.id === 'lb_health_check_not_200');
  return [
    ...(entry ? collectorsWithoutMemoryLimiter(model, entry) : []),
    ...(lb ? unhealthyLoadBalancerBackends(model, lb) : []),
  ];
}

/** an OpenTelemetry Collector's image (core, contrib, k8s distributions, vendors' builds) */
export const OTEL_COLLECTOR_IMAGE = /opentelemetry-collector|\botelcol\b|otel-collector/i;

const oomKilled = (p: ObjectView) =>
  p.containers.find((c) => [c.last, c.terminated].some((s) => s?.reason === 'OOMKilled'));

/** an OOMKilled container of an OpenTelemetry Collector */
export function oomKilledCollector(p: ObjectView): boolean {
  const c = oomKilled(p);
  return !!c && OTEL_COLLECTOR_IMAGE.test(c.image ?? p.images.join(' '));
}

/** the collector configurations (a key with `service:` and `pipelines:`) of a ConfigMap */
function collectorConfigs(cm: ObjectView): string[] {
  let data: Record<string, string>;
  try {
    data = JSON.parse(cm.fields['data'] ?? '{}') as Record<string, string>;
  } catch {
    return [];
  }
  return Object.values(data).filter(
    (v) => typeof v === 'string' && /^service:/m.test(v) && /^\s+pipelines:/m.test(v),
  );
}

/** the processor lists of a config's pipelines ("processors: [k8sattributes, batch]") */
function pipelineProcessors(config: string): string[] {
  const after = config.slice(config.search(/^\s+pipelines:/m));
  const out: string[] = [];
  for (const m of after.matchAll(/^\s+processors:\s*(\[[^\]\n]*\]|\n(?:\s+-\s*\S+\s*\n?)+)/gm))
    out.push(m[1]!.replace(/\s+/g, ' ').trim());
  return out;
}

function collectorsWithoutMemoryLimiter(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const pod of model.list('pod').filter(oomKilledCollector)) {
    const w = model.workloadOf(pod).name;
    if (seen.has(`${pod.namespace ?? ''}/${w}`)) continue;
    for (const name of configMapNamesOf(pod)) {
      const cm = model.get('configmap', name, pod.namespace);
      const config = cm ? collectorConfigs(cm)[0] : undefined;
      if (!config) continue;
      const lists = pipelineProcessors(config);
      // a pipeline with a memory_limiter (or one named memory_limiter/...) is protected
      if (!lists.length || lists.some((l) => /\bmemory_limiter\b/.test(l))) continue;
      seen.add(`${pod.namespace ?? ''}/${w}`);
      const queue = /^\s+queue_size:\s*(\d+)/m.exec(config)?.[1];
      out.push({
        entry,
        object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
        workload: w,
        fact: `processors: ${lists[0]}`,
        groups: {
          collector_config: name,
          collector_queue: queue
            ? `; its exporter's sending queue holds up to ${queue} batches (queue_size ${queue}) in memory while the backend refuses or times out`
            : '',
          limit: oomKilled(pod)?.limits['memory'] ? ` of ${oomKilled(pod)!.limits['memory']}` : '',
        },
        where: 'status',
        source: cm!.source,
      });
      break;
    }
  }
  return out;
}

/** a cloud load balancer's health checker, as the backend's access log names its user agent */
const LB_CHECKER = /GoogleHC\/|ELB-HealthChecker\//;
/** the answer of an access-log line: "status":302 (JSON) or `"GET / HTTP/1.1" 302` */
const ANSWER = /"status(?:Code)?"\s*:\s*(\d{3})\b|"[A-Z]+ \S+ HTTP\/[\d.]+" (\d{3})\b/;
const PATH = /"(?:path|url)"\s*:\s*"([^"]+)"|"[A-Z]+ (\S+) HTTP\/[\d.]+"/;

/**
 * A GKE Ingress whose load balancer marks a Service's backend UNHEALTHY (its
 * ingress.kubernetes.io/backends annotation) while the pods run: the health check does not get a
 * 200. The pods' access log shows what the checker (GoogleHC) got instead, a redirect to a login
 * page or a 404 on "/"; with no readinessProbe the check goes to "/" and expects 200.
 */
function unhealthyLoadBalancerBackends(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const ing of model.list('ingress')) {
    const raw = jsonField(ing, 'annotations')['ingress.kubernetes.io/backends'];
    if (!raw || !ing.namespace) continue;
    let states: Record<string, string>;
    try {
      states = JSON.parse(raw) as Record<string, string>;
    } catch {
      continue;
    }
    let routes: { service: string }[] = [];
    try {
      routes = JSON.parse(ing.fields['backends'] ?? '[]') as { service: string }[];
    } catch {
      routes = [];
    }
    for (const svc of new Set(routes.map((r) => r.service))) {
      // GKE names a backend k8s1-<uid>-<namespace>-<service>-<port>-<hash>
      const key = Object.keys(states).find(
        (k) => k.includes(`-${ing.namespace}-${svc}-`) && /^UNHEALTHY$/i.test(states[k] ?? ''),
      );
      if (!key) continue;
      const service = model.get('service', svc, ing.namespace);
      const reqs = service?.fields['selector'] ? selectorOf(service.fields['selector']) : undefined;
      const pods = model
        .list('pod', ing.namespace)
        .filter((p) => (reqs ? matchesLabels(p.labels, reqs) : model.workloadOf(p).name === svc));
      if (!pods.length) continue;
      // what the checker got from the pods: a line with its user agent and an answer not 2xx
      let seen:
        { text: string; status: string; path?: string; at?: number; source: string } | undefined;
      for (const l of model.logs.filter((x) => pods.some((p) => p.name === x.pod)))
        for (const x of l.lines) {
          if (seen || !LB_CHECKER.test(x.text)) continue;
          const a = ANSWER.exec(x.text);
          const status = a?.[1] ?? a?.[2];
          if (!status || status.startsWith('2')) continue;
          const m = PATH.exec(x.text);
          seen = { text: x.text, status, path: m?.[1] ?? m?.[2], at: x.at, source: l.source };
        }
      const noReadiness = pods[0]!.containers.every(
        (c) => !c.probes.some((p) => /^Readiness/.test(p)),
      );
      const pod = pods[0]!;
      out.push({
        entry,
        // on the Ingress: the pods themselves run and are ready (the load balancer refuses them)
        object: { kind: 'ingress', name: ing.name, namespace: ing.namespace },
        workload: model.workloadOf(pod).name,
        fact: seen ? clip(seen.text, 240) : `${key}: ${states[key]}`,
        groups: {
          lb_ingress: ing.name,
          lb_backend: key,
          lb_answer: seen
            ? `: the load balancer's health check${seen.path ? ` on ${seen.path}` : ''} gets ${seen.status}${/^3/.test(seen.status) ? ' (a redirect)' : ''} from the pods, not 200`
            : '',
          lb_probe: noReadiness
            ? '; the pods have no readinessProbe, so the health check GKE created goes to "/" and expects 200'
            : '',
          lb_path: seen?.path && seen.path !== '/' ? seen.path : '/healthz',
        },
        ...(seen?.at !== undefined ? { at: seen.at } : {}),
        where: seen ? 'log' : 'status',
        source: seen?.source ?? ing.source,
      });
    }
  }
  return out;
}
