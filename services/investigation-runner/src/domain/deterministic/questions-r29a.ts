/**
 * A question of round29 (r29a): "which nodes (actually) have a ready <controller> pod?", asked
 * when a load balancer shows only some of its instances healthy. A Service with
 * externalTrafficPolicy: Local answers the load balancer's health check (healthCheckNodePort)
 * only on nodes with a ready local endpoint, so the others fail it by design
 * (kubernetes.io "Create an External Load Balancer: preserving the client source IP").
 */
import { matchesLabels } from '@inquest/kube';
import { selectorOf } from './dependencies';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question, Scope } from './scope';

export function readyPodsByNodeQuestion(
  t: string,
  namespaces: string[],
  near: string[],
): Question | undefined {
  if (/^\s*why\b/.test(t)) return undefined;
  // "which nodes (actually) have a ready controller pod?": where a workload's ready pods are, not
  // a count of pods per node ("which node runs the most pods")
  if (/\b(?:most|least|fewest|how many)\b/.test(t)) return undefined;
  if (
    !/\b(?:which|what) (?:of the )?nodes?\b[^?.]*?\b(?:have|has|run|runs|host|hosts|with)\b[^?.]*?\bready\b[^?.]*?\bpods?\b/.test(
      t,
    )
  )
    return undefined;
  return { type: 'ready_pods_by_node', namespace: namespaces[0], near };
}

const ready = (p: ObjectView) =>
  p.status === 'Running' &&
  !p.fields['terminating'] &&
  p.containers.every((c) => c.init || (!c.waiting && c.ready !== false));

/** the pods a Service selects, on the labels read */
function selected(model: ClusterModel, svc: ObjectView): ObjectView[] {
  const reqs = selectorOf(svc.fields['selector'] ?? '');
  if (!reqs?.length) return [];
  return model
    .list('pod', svc.namespace)
    .filter((p) => p.namespace === svc.namespace && matchesLabels(p.labels, reqs));
}

export function readyPodsByNode(
  model: ClusterModel,
  namespace: string | undefined,
  scope: Scope,
): string {
  const nodes = model.list('node');
  const named = model
    .list('pod', namespace)
    .filter(
      (p) =>
        (!namespace || p.namespace === namespace) &&
        scope.subjects.some((s) => model.matches(p, s)),
    );
  // the Service in front of them that the load balancer checks
  const services = model
    .list('service', namespace)
    .filter((s) => /LoadBalancer|NodePort/.test(s.fields['type'] ?? ''))
    .map((s) => ({ s, pods: selected(model, s) }))
    .filter((x) => x.pods.length);
  const front =
    services.find((x) => x.pods.some((p) => named.includes(p))) ??
    (named.length ? undefined : services[0]);
  const pods = front ? front.pods : named;
  if (!pods.length)
    return `I could not find the pods${namespace ? ` in namespace ${namespace}` : ''} the question is about with the tools available.`;
  const workload = model.workloadOf(pods[0]!).name;
  const byNode = new Map<string, ObjectView[]>();
  for (const p of pods.filter(ready)) {
    if (!p.node) continue;
    (byNode.get(p.node) ?? byNode.set(p.node, []).get(p.node)!).push(p);
  }
  const unplaced = pods.filter((p) => ready(p) && !p.node);
  const without = nodes.filter((n) => !byNode.has(n.name)).map((n) => n.name);
  const withList = [...byNode]
    .map(
      ([n, ps]) =>
        `${n} (${ps.length} ready pod${ps.length > 1 ? 's' : ''}: ${ps.map((p) => p.name).join(', ')})`,
    )
    .join('; ');
  const notReady = pods
    .filter((p) => !ready(p))
    .map((p) => `${p.name}${p.node ? ` on ${p.node}` : ''}`);
  const head = byNode.size
    ? `Ready pods of ${workload}${namespace ? ` (namespace ${namespace})` : ''} run on ${byNode.size}${nodes.length ? ` of ${nodes.length}` : ''} node${byNode.size > 1 || nodes.length ? 's' : ''}: ${withList}.`
    : `No ready pod of ${workload} was found on any node.`;
  const none = without.length
    ? ` ${without.join(' and ')} ${without.length > 1 ? 'have' : 'has'} none.`
    : '';
  const nr = notReady.length ? ` Not ready: ${notReady.join(', ')}.` : '';
  const un = unplaced.length
    ? ` The node of ${unplaced.map((p) => p.name).join(', ')} was not shown.`
    : '';
  const svc = front?.s;
  const etp = svc?.fields['externalTrafficPolicy'];
  const hc = svc?.fields['healthCheckNodePort'];
  const policy =
    svc && etp === 'Local'
      ? ` The Service ${svc.name} (type ${svc.fields['type'] ?? 'LoadBalancer'}) has externalTrafficPolicy: Local${hc ? ` (healthCheckNodePort ${hc})` : ''}: kube-proxy answers the load balancer's health check only on nodes with a ready local pod, so the load balancer counts ${byNode.size} of ${nodes.length || 'its'} instances healthy${without.length ? ` and ${without.join(', ')} unhealthy` : ''} by design (it keeps the client source IP); that is expected, not a fault. For every node to pass, run a pod on each (a DaemonSet) or set externalTrafficPolicy: Cluster.`
      : svc && etp
        ? ` The Service ${svc.name} has externalTrafficPolicy: ${etp}: every node forwards to the pods, so the load balancer's health does not depend on where they run.`
        : '';
  return `${head}${none}${nr}${un}${policy}`;
}
