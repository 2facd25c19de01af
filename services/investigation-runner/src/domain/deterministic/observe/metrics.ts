import { quantity } from '../model';
import { arr, rec, str, type CallContext, type Observed } from './views';

/**
 * The metrics API's own objects (metrics.k8s.io: what `kubectl top` reads), as servers that call
 * the API answer them: a PodMetrics (`metadata`, `containers[].usage.{cpu,memory}`) or a
 * NodeMetrics (`metadata`, `usage`), alone or as the items of a PodMetricsList / NodeMetricsList,
 * whose items carry no `kind`. A pod's usage is the sum of its containers', as `kubectl top pod`
 * prints it. Returns false for anything else.
 */
export function fromMetricsObject(
  o: Record<string, unknown>,
  ctx: CallContext,
  out: Observed,
): boolean {
  const kind = str(o['kind']) ?? '';
  const list = /^(Pod|Node)MetricsList$/.exec(kind);
  if (list) {
    for (const item of arr(o['items']).slice(0, 2000))
      usageOf(rec(item), list[1] === 'Node' ? 'node' : 'pod', ctx, out);
    return true;
  }
  const one = /^(Pod|Node)Metrics$/.exec(kind);
  if (one) return usageOf(o, one[1] === 'Node' ? 'node' : 'pod', ctx, out);
  // an item on its own, without its kind: the shape says which
  if (!rec(o['metadata'])['name'] || o['spec'] || o['status']) return false;
  if (isUsage(o['usage'])) return usageOf(o, 'node', ctx, out);
  const containers = arr(o['containers']);
  if (containers.length && containers.every((c) => isUsage(rec(c)['usage'])))
    return usageOf(o, 'pod', ctx, out);
  return false;
}

function isUsage(u: unknown): boolean {
  const r = rec(u);
  return typeof r['cpu'] === 'string' || typeof r['memory'] === 'string';
}

function usageOf(
  o: Record<string, unknown>,
  kind: 'pod' | 'node',
  ctx: CallContext,
  out: Observed,
): boolean {
  const meta = rec(o['metadata']);
  const name = str(meta['name']);
  if (!name) return false;
  let cpu: string | undefined;
  let memory: string | undefined;
  if (kind === 'node') {
    cpu = str(rec(o['usage'])['cpu']);
    memory = str(rec(o['usage'])['memory']);
  } else {
    const usages = arr(o['containers']).map((c) => rec(rec(c)['usage']));
    if (!usages.length) return false;
    const sum = (key: string) =>
      usages.some((u) => typeof u[key] === 'string')
        ? usages.reduce((n, u) => n + quantity(str(u[key])), 0)
        : undefined;
    const cores = sum('cpu');
    const bytes = sum('memory');
    // as kubectl top prints them: millicores and MiB
    if (cores !== undefined) cpu = `${Math.round(cores * 1000)}m`;
    if (bytes !== undefined) memory = `${Math.round(bytes / 1024 ** 2)}Mi`;
  }
  out.metrics.push({
    kind,
    name,
    ...(kind === 'pod' ? { namespace: str(meta['namespace']) ?? ctx.namespace } : {}),
    ...(cpu !== undefined ? { cpu } : {}),
    ...(memory !== undefined ? { memory } : {}),
    source: ctx.tool,
  });
  return true;
}
