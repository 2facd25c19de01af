/**
 * Round31 (r31a) rule that compares objects (cause-catalog.data.ts, its "round31 (r31a)" block).
 *
 * An OpenTelemetry Collector OOMKilled whose pipelines run no memory_limiter processor: nothing
 * refuses data when memory runs short, so what the exporters cannot send (a backend that rate
 * limits or times out) piles up in their retry and sending queues until the container hits its
 * limit. The config read is the collector's own (the ConfigMap its pod mounts).
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { configMapNamesOf, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';

export function r31aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'otel_collector_no_memory_limiter');
  return entry ? collectorsWithoutMemoryLimiter(model, entry) : [];
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
