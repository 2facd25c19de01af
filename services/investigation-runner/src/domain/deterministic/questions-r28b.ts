/**
 * A question of round28 (r28b): "which pods (in namespace X) are BestEffort / Burstable /
 * Guaranteed?" (before a node upgrade or under memory pressure: BestEffort pods, with no requests
 * or limits in any container, are evicted first). The pod's status.qosClass (`QoS Class` in a
 * description) says it; a pod whose class was not shown is read whole by the gatherer.
 */
import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question } from './scope';

const CLASSES: Record<string, string> = {
  besteffort: 'BestEffort',
  burstable: 'Burstable',
  guaranteed: 'Guaranteed',
};

export function qosQuestion(t: string, namespaces: string[], near: string[]): Question | undefined {
  if (/^\s*why\b/.test(t)) return undefined;
  const m = /\b(best[- ]?effort|burstable|guaranteed)\b/.exec(t);
  if (!m) return undefined;
  if (!/\b(?:which|what|list|show|any|how many|find)\b/.test(t) || !/\bpods?\b|\bqos\b/.test(t))
    return undefined;
  const qos = CLASSES[m[1]!.replace(/[- ]/g, '')]!;
  return { type: 'pods_by_qos', qos, namespace: namespaces[0], near };
}

/** a pod's QoS class as the API or a description shows it (undefined: not shown) */
export function qosOf(p: ObjectView): string | undefined {
  const v = p.fields['qosClass'] ?? p.fields['QoS Class'];
  return v && /^(?:BestEffort|Burstable|Guaranteed)$/.test(v) ? v : undefined;
}

const finished = (p: ObjectView) => /^(?:Succeeded|Completed|Failed)$/.test(p.status ?? '');

export function podsByQos(model: ClusterModel, namespace: string | undefined, qos: string): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter((p) => p.kind === 'pod' && (!namespace || p.namespace === namespace));
  if (!pods.length) return `I could not list the pods${where} with the tools available.`;
  const live = pods.filter((p) => !finished(p));
  const known = live.filter((p) => qosOf(p));
  const matching = known.filter((p) => qosOf(p) === qos);
  const unknown = live.filter((p) => !qosOf(p));
  const label = (p: ObjectView) => {
    const w = model.workloadOf(p);
    const owner =
      w && w.name !== p.name ? ` (${w.kind} ${w.name})` : ' (a bare pod, no controller)';
    return `${p.name}${owner}${namespace || !p.namespace ? '' : ` in namespace ${p.namespace}`}`;
  };
  const others = known
    .filter((p) => qosOf(p) !== qos)
    .map((p) => `${p.name} ${qosOf(p)}`)
    .slice(0, 10);
  const meaning =
    qos === 'BestEffort'
      ? ' (no container sets a memory or CPU request or limit: under node pressure the kubelet evicts them first)'
      : qos === 'Guaranteed'
        ? ' (every container has requests equal to its limits: evicted last)'
        : ' (some request or limit set, not Guaranteed)';
  const head = matching.length
    ? `${matching.length} pod${matching.length === 1 ? ' is' : 's are'} ${qos}${where}${meaning}: ${matching.map(label).join('; ')}.`
    : `No running pod${where} is ${qos}${known.length ? '' : ' that I could tell'}.`;
  const rest = others.length ? ` The others: ${others.join(', ')}.` : '';
  const missing = unknown.length
    ? ` The QoS class of ${unknown
        .map((p) => p.name)
        .slice(0, 8)
        .join(', ')} was not shown.`
    : '';
  return `${head}${rest}${missing}`;
}
