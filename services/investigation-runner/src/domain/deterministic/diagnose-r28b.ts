/**
 * Round28 (r28b) rules that compare objects (cause-catalog.data.ts, its "round28 (r28b)" block).
 *
 * A memory request or limit written with a lowercase "m" ("1024m"): in Kubernetes quantities m is
 * milli, so the container gets about one byte, not a MiB. The kubelet sizes the memory-backed
 * volumes of the pod (the projected service-account token, Secrets, emptyDir medium Memory) to
 * its memory limit, so their setup fails with "no space left on device" and the pod never leaves
 * ContainerCreating (or the runtime refuses to start a container below its minimum).
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { quantity, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';

const hasFinishedPod = (p: ObjectView) => /Succeeded|Completed|Failed/.test(p.status ?? '');

export function r28bFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const milli = entries.find((e) => e.id === 'memory_quantity_millibytes');
  return milli ? millibyteMemory(model, milli) : [];
}

/** a memory quantity in millis ("1024m"): a fraction of a byte or a few bytes */
const MILLI = /^\s*\d+(?:\.\d+)?m\s*$/;

function running(pod: ObjectView): boolean {
  return pod.status === 'Running' && pod.containers.every((c) => c.init || !c.waiting);
}

function millibyteMemory(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const pod of model.list('pod')) {
    if (pod.kind !== 'pod' || hasFinishedPod(pod) || running(pod)) continue;
    for (const c of pod.containers) {
      const limit = c.limits['memory'];
      const request = c.requests['memory'];
      const bad = [
        ...(limit && MILLI.test(limit) ? [['limit', limit] as const] : []),
        ...(request && MILLI.test(request) ? [['request', request] as const] : []),
      ];
      if (!bad.length) continue;
      const workload = model.workloadOf(pod).name;
      const key = `${pod.namespace ?? ''}/${workload}/${c.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // what the same container had in the pods of the other template (the previous revision)
      const before = model
        .list('pod', pod.namespace)
        .filter((p) => p !== pod && model.workloadOf(p).name === workload)
        .flatMap((p) => p.containers.filter((x) => x.name === c.name))
        .find((x) => x.limits['memory'] && !MILLI.test(x.limits['memory']));
      const shown = bad.map(([k, v]) => `memory ${k} ${v}`).join(', ');
      const bytes = bad.map(([k, v]) => `${v} = ${+quantity(v).toFixed(3)} byte (${k})`);
      const prev = before
        ? [
            before.requests['memory'] ? `request ${before.requests['memory']}` : '',
            `limit ${before.limits['memory']}`,
          ]
            .filter(Boolean)
            .join(' / ')
        : '';
      const intended = bad.map(([, v]) => `${v.replace(/m\s*$/, '')}Mi`).join(' / ');
      const blocked = model.events.find(
        (e) =>
          e.object?.name === pod.name &&
          /no space left on device|FailedMount|CreateContainerError|too low|minimum/i.test(
            `${e.reason ?? ''} ${e.message ?? ''}`,
          ),
      );
      out.push({
        entry,
        object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
        workload,
        fact: `container ${c.name}: ${shown}`,
        groups: {
          container: c.name,
          milli_quantities: bytes.join(', '),
          milli_shown: shown,
          milli_before: prev
            ? `; the pods of the previous template have ${prev} (the "m" suffix instead of Mi)`
            : '',
          milli_intended: prev || intended,
          milli_effect: blocked
            ? `: "${(blocked.message ?? blocked.reason ?? '').replace(/\s+/g, ' ').slice(0, 220)}"`
            : '',
        },
        where: 'status',
        source: 'pod spec',
      });
    }
  }
  return out;
}
