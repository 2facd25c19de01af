/**
 * A rule of round24 (r24a) that compares several facts (cause-catalog.data.ts, its "round24
 * (r24a)" block): a HorizontalPodAutoscaler held at its maxReplicas by its memory metric alone
 * (memory above its target, every CPU metric below its own). The HPA takes the largest replica
 * count any metric asks; memory per pod that does not fall when pods are added (a runtime that
 * keeps its heap: a JVM started with -Xms) keeps it at the maximum, idle or not.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import type { ClusterModel } from './model';

/** "cpu: 5%/60%, memory: 177%/75%" -> { cpu: [5, 60], memory: [177, 75] } (utilization only) */
function utilization(targets: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const m of targets.matchAll(/\b(cpu|memory)(?:\s*\([^)]*\))?:\s*(\d+)%\s*\/\s*(\d+)%/gi))
    out.set(m[1]!.toLowerCase(), [Number(m[2]), Number(m[3])]);
  return out;
}

const START_HEAP = /-Xms\d+[kmgt]?|-XX:InitialRAMPercentage=[\d.]+/i;

export function r24aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'hpa_pinned_at_max_by_memory');
  if (!entry) return [];
  const out: Finding[] = [];
  for (const hpa of model.list('horizontalpodautoscaler')) {
    const max = Number(hpa.fields['maxReplicas']);
    const current = Number(hpa.fields['status.currentReplicas']);
    if (!max || current < max) continue;
    const u = utilization(hpa.fields['targets'] ?? '');
    const mem = u.get('memory');
    const cpu = u.get('cpu');
    // memory alone holds it: above its target, CPU well below its own
    if (!mem || !cpu || mem[0] <= mem[1] || cpu[0] >= cpu[1] / 2) continue;
    const target = (hpa.fields['scaleTarget'] ?? '').split('/').pop() || hpa.name;
    const pods = model.podsOf('deployment', target, hpa.namespace);
    const c = pods.flatMap((p) => p.containers.filter((x) => !x.init))[0];
    const flag =
      c &&
      Object.values(c.env)
        .map((v) => START_HEAP.exec(v)?.[0])
        .find(Boolean);
    const request = c?.requests['memory'];
    out.push({
      entry,
      object: { kind: 'horizontalpodautoscaler', name: hpa.name, namespace: hpa.namespace },
      workload: target,
      fact: `${hpa.fields['targets']} at ${current}/${max} replicas`,
      groups: {
        hpa: hpa.name,
        max: String(max),
        mem_now: `${mem[0]}%`,
        mem_target: `${mem[1]}%`,
        cpu_now: `${cpu[0]}%`,
        cpu_target: `${cpu[1]}%`,
        mem_request: request ? ` (${request} per pod)` : '',
        start_heap: flag
          ? `; its JVM starts with ${flag}, a heap it reserves whatever the load${request ? ` and above the ${request} request alone` : ''}, so every pod sits above the target`
          : '',
      },
      where: 'status',
      source: hpa.source,
    });
  }
  return out;
}
