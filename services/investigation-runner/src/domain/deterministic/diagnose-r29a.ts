/**
 * Round29 (r29a) rules (cause-catalog.data.ts, its "round29 (r29a)" block).
 *
 * CoreDNS's query log (the log plugin, often with `class denial error`) lists the NXDOMAIN
 * answers. A pod resolving an external name with fewer dots than ndots (5 by default) walks its
 * search list first: "api.example.com.<ns>.svc.cluster.local.", "api.example.com.svc.cluster.local.",
 * "api.example.com.cluster.local." (and the node's own search domains), all NXDOMAIN, then the
 * absolute name, which resolves. Those NXDOMAINs are the normal cost of ndots:5, not a DNS
 * failure: a name is a search-list expansion when the same base name is asked with two or more
 * different suffixes and the absolute base name itself is never answered NXDOMAIN/SERVFAIL.
 * (kubernetes.io "DNS for Services and Pods", coredns.io/plugins/log)
 *
 * A Service with internalTrafficPolicy: Local: kube-proxy routes its ClusterIP traffic only to
 * endpoints on the client's own node and drops it elsewhere, so clients on nodes without a pod of
 * the Service time out while those beside one work (kubernetes.io "Service Internal Traffic
 * Policy").
 */
import { matchesLabels } from '@inquest/kube';
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { podsNamedFor, selectorOf } from './dependencies';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';

export function r29aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const local = entries.find((e) => e.id === 'service_internal_traffic_local');
  return [...(local ? internalTrafficLocal(model, local) : [])];
}

const TIMES_OUT = /i\/o timeout|timed? ?out|deadline exceeded|\btimeout\b/i;

const ready = (p: ObjectView) =>
  p.status === 'Running' &&
  p.containers.every((c) => c.init || (!c.waiting && c.ready !== false)) &&
  !p.fields['terminating'];

/** The pods behind a Service: its selector on the labels read, else the workload it is named for. */
function podsOf(model: ClusterModel, svc: ObjectView): ObjectView[] {
  const reqs = selectorOf(svc.fields['selector'] ?? '');
  const pods = model.list('pod', svc.namespace).filter((p) => p.namespace === svc.namespace);
  const byLabels = reqs?.length
    ? pods.filter((p) => Object.keys(p.labels).length && matchesLabels(p.labels, reqs))
    : [];
  return byLabels.length ? byLabels : podsNamedFor(model, svc);
}

/** How a client's line names the Service: its ClusterIP, its DNS name, or its short name with a port. */
function namesService(line: string, svc: ObjectView, clientNs: string | undefined): boolean {
  const ip = svc.fields['clusterIP'];
  if (
    ip &&
    ip !== 'None' &&
    new RegExp(`(?<![\\d.])${ip.replace(/\./g, '\\.')}(?![\\d])`).test(line)
  )
    return true;
  const name = svc.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ns = (svc.namespace ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`(?<![\\w-])${name}\\.${ns}(?:\\.svc\\b|[:/])`).test(line)) return true;
  return (
    clientNs === svc.namespace && new RegExp(`//${name}:\\d+|(?<![\\w.-])${name}:\\d+`).test(line)
  );
}

function internalTrafficLocal(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const svc of model.list('service')) {
    if (svc.fields['internalTrafficPolicy'] !== 'Local') continue;
    const backends = podsOf(model, svc).filter(ready);
    const withPod = new Set(backends.map((p) => p.node).filter((n): n is string => !!n));
    if (backends.some((p) => !p.node)) continue;
    const failing: { pod: ObjectView; line: string; source: string }[] = [];
    let besideFails = false;
    for (const log of model.logs) {
      if (log.previous || !log.pod) continue;
      const pod = model.get('pod', log.pod, log.namespace);
      if (!pod?.node || backends.includes(pod)) continue;
      const line = [...log.lines]
        .reverse()
        .find((l) => TIMES_OUT.test(l.text) && namesService(l.text, svc, pod.namespace));
      if (!line) continue;
      if (withPod.has(pod.node)) besideFails = true;
      else if (!failing.some((f) => f.pod === pod))
        failing.push({ pod, line: line.text.trim(), source: log.source });
    }
    // only the clients on nodes without a pod of the Service time out
    if (!failing.length || besideFails) continue;
    const clientNodes = [...new Set(failing.map((f) => f.pod.node!))];
    const first = failing[0]!;
    out.push({
      entry,
      object: { kind: 'pod', name: first.pod.name, namespace: first.pod.namespace },
      workload: model.workloadOf(first.pod).name,
      fact: first.line,
      groups: {
        service: svc.name,
        service_ns: svc.namespace ?? '',
        failing_pods: failing.map((f) => `${f.pod.name} on ${f.pod.node}`).join(', '),
        client_nodes: clientNodes.join(', '),
        backend_nodes: [...withPod].join(', ') || 'no node (no ready pod)',
      },
      where: 'log',
      source: first.source,
    });
  }
  return out;
}

/** a CoreDNS log-plugin line: `"A IN name. udp 53 false 512" NXDOMAIN` */
const QUERY_LOG =
  /"(?:A|AAAA|CNAME|SRV|MX|TXT|PTR|ANY|NS|SOA) IN (\S+?)\.? (?:udp|tcp)\b[^"]*" (\w+)/;

/**
 * The indices of the CoreDNS query-log lines (NXDOMAIN answers) that are search-list expansions
 * of a name that resolves in the end.
 */
export function searchListExpansions(lines: string[]): Set<number> {
  const out = new Set<number>();
  const queries: { i: number; name: string; rcode: string }[] = [];
  lines.forEach((text, i) => {
    const m = QUERY_LOG.exec(text);
    if (m) queries.push({ i, name: m[1]!.toLowerCase(), rcode: m[2]! });
  });
  const failed = queries.filter((q) => q.rcode === 'NXDOMAIN');
  if (failed.length < 2) return out;
  const failedNames = new Set(
    queries.filter((q) => q.rcode === 'NXDOMAIN' || q.rcode === 'SERVFAIL').map((q) => q.name),
  );
  // the cluster's search domains: "<ns>.svc.<zone>", "svc.<zone>", "<zone>"
  const zones = new Set<string>();
  for (const q of failed) {
    const m = /(?:^|\.)svc\.([\w-]+(?:\.[\w-]+)*)$/.exec(q.name);
    if (m) zones.add(m[1]!);
  }
  const clusterSuffix = (suffix: string) =>
    zones.has(suffix) ||
    [...zones].some(
      (z) =>
        suffix === `svc.${z}` ||
        new RegExp(`^[\\w-]+\\.svc\\.${z.replace(/\./g, '\\.')}$`).test(suffix),
    );
  // each base name (at least two labels: an external name), the cluster suffixes it was asked with
  const suffixes = new Map<string, Set<string>>();
  for (const q of failed) {
    const labels = q.name.split('.');
    for (let k = 2; k < labels.length; k++) {
      const base = labels.slice(0, k).join('.');
      const suffix = labels.slice(k).join('.');
      if (clusterSuffix(suffix))
        (suffixes.get(base) ?? suffixes.set(base, new Set()).get(base)!).add(suffix);
    }
  }
  // walked: asked with two or more of the cluster's search domains, and never failing by itself
  const walked = [...suffixes]
    .filter(([base, s]) => s.size >= 2 && !failedNames.has(base))
    .map(([base]) => base);
  for (const q of failed) if (walked.some((base) => q.name.startsWith(`${base}.`))) out.add(q.i);
  return out;
}
