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
 *
 * An Istio DestinationRule subset ("stable": version=v3) that a VirtualService sends traffic to
 * while no pod of the host carries its labels any more (a chart that changed the version label):
 * the subset's cluster has no endpoints and every caller's sidecar answers 503 "no healthy
 * upstream" (UH) although the pods and the Service's endpoints are fine (istio.io DestinationRule,
 * Envoy response flag UH).
 */
import { matchesLabels } from '@inquest/kube';
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { podsNamedFor, selectorOf } from './dependencies';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';

export function r29aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const local = entries.find((e) => e.id === 'service_internal_traffic_local');
  const subset = entries.find((e) => e.id === 'istio_subset_selects_no_pod');
  const grant = entries.find((e) => e.id === 'httproute_backend_not_granted');
  const blackhole = entries.find((e) => e.id === 'mesh_registry_only_unregistered_host');
  return [
    ...(local ? internalTrafficLocal(model, local) : []),
    ...(subset ? subsetsSelectingNoPod(model, subset) : []),
    ...(grant ? backendsNotGranted(model, grant) : []),
    ...(blackhole ? unregisteredExternalHosts(model, blackhole) : []),
  ];
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

/** Envoy's access log of a request no endpoint could take: 503 UH / no_healthy_upstream */
export const NO_HEALTHY_UPSTREAM = /no[ _]healthy[ _]upstream|" 503 UH\b/i;

function parse<T>(v: string | undefined): T[] {
  try {
    return v ? (JSON.parse(v) as T[]) : [];
  } catch {
    return [];
  }
}

/** "pricing-api.catalog.svc.cluster.local" (or "pricing-api") in namespace ns: name, namespace */
function hostService(host: string, ns: string | undefined): { name: string; namespace?: string } {
  const [name, second] = host.split('.');
  return {
    name: name ?? host,
    namespace: second && host.includes('.svc') ? second : (second ?? ns),
  };
}

const sameHost = (a: string, aNs: string | undefined, b: string, bNs: string | undefined) => {
  const x = hostService(a, aNs);
  const y = hostService(b, bNs);
  return x.name === y.name && x.namespace === y.namespace;
};

function subsetsSelectingNoPod(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const dr of model.list('destinationrule')) {
    const host = dr.fields['host'];
    if (!host) continue;
    const target = hostService(host, dr.namespace);
    const svc = model.get('service', target.name, target.namespace);
    const pods = (
      svc
        ? podsOf(model, svc)
        : model
            .list('pod', target.namespace)
            .filter((p) => model.workloadOf(p).name === target.name)
    ).filter((p) => p.status === 'Running' && !p.fields['terminating']);
    // only pods whose labels were read can tell
    if (!pods.length || pods.some((p) => !Object.keys(p.labels).length)) continue;
    const routes = model.list('virtualservice').flatMap((vs) =>
      parse<{ host: string; subset: string; weight: number }>(vs.fields['routes']).map((r) => ({
        ...r,
        vs,
      })),
    );
    for (const subset of parse<{ name: string; labels: Record<string, string> }>(
      dr.fields['subsets'],
    )) {
      const want = Object.entries(subset.labels ?? {});
      if (!subset.name || !want.length) continue;
      if (pods.some((p) => want.every(([k, x]) => p.labels[k] === x))) continue;
      const route = routes.find(
        (r) =>
          r.subset === subset.name &&
          r.weight > 0 &&
          sameHost(r.host, r.vs.namespace, host, dr.namespace),
      );
      // the sidecars' access log: requests to the subset's cluster find no endpoint
      const cluster = `|${subset.name}|${target.name}.`;
      const refused = model.logs
        .flatMap((l) => l.lines)
        .filter((x) => NO_HEALTHY_UPSTREAM.test(x.text) && x.text.includes(cluster));
      if (!route && !refused.length) continue;
      const carried = [
        ...new Set(
          want.flatMap(([k]) =>
            pods.map((p) => (p.labels[k] === undefined ? `no ${k}` : `${k}=${p.labels[k]}`)),
          ),
        ),
      ].join(', ');
      // the ReplicaSet of the workload that still had the subset's labels (the template before)
      const before = model
        .list('replicaset', target.namespace)
        .filter(
          (rs) =>
            model.workloadOf(rs).name === model.workloadOf(pods[0]!).name &&
            want.every(([k, x]) => rs.labels[k] === x),
        )[0];
      const fact =
        refused.at(-1)?.text.trim() ??
        `VirtualService ${route!.vs.name} routes weight ${route!.weight} to subset ${subset.name}`;
      out.push({
        entry,
        object: { kind: 'destinationrule', name: dr.name, namespace: dr.namespace },
        workload: model.workloadOf(pods[0]!).name,
        fact,
        groups: {
          rule: dr.name,
          rule_ns: dr.namespace ?? '',
          subset: subset.name,
          subset_labels: want.map(([k, x]) => `${k}: ${x}`).join(', '),
          carried,
          route: route
            ? ` and the VirtualService ${route.vs.name} sends it weight ${route.weight}`
            : '',
          subset_before: before
            ? `; the pods of the previous template (ReplicaSet ${before.name}) carried ${want.map(([k, x]) => `${k}=${x}`).join(', ')}, so the release that changed the label did it`
            : '',
          ready_pods: String(pods.length),
        },
        where: refused.length ? 'log' : 'status',
        source: dr.source,
      });
    }
  }
  return out;
}

/** a route's parent refusing a backend in another namespace: "... to Service ns/name not permitted" */
const NOT_PERMITTED =
  /RefNotPermitted: ([^|]*?\b(?:to )?(?:Service )?([\w-]+)\/([\w.-]+) not permitted[^|]*)/;

/**
 * An HTTPRoute whose backendRef in another namespace no ReferenceGrant there permits (Gateway API:
 * ResolvedRefs False, RefNotPermitted): the gateway answers that rule's requests itself (500)
 * and the Service never gets them. The grants of that namespace say which names they do allow.
 */
function backendsNotGranted(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  for (const route of model.list('httproute')) {
    const m = NOT_PERMITTED.exec(route.fields['refsUnresolved'] ?? '');
    if (!m) continue;
    const [, message, ns, name] = m;
    const grants = model
      .list('referencegrant', ns)
      .filter((g) => g.namespace === ns && g.fields['grantTo'] !== undefined);
    const allowed = grants.flatMap((g) =>
      parse<{ kind: string; name: string }>(g.fields['grantTo'])
        .filter((t) => t.kind === 'Service')
        .map((t) => ({ grant: g.name, name: t.name })),
    );
    const svc = model.get('service', name!, ns);
    const pods = svc ? podsOf(model, svc) : [];
    const workload = pods[0] ? model.workloadOf(pods[0]).name : name!;
    out.push({
      entry,
      object: { kind: 'httproute', name: route.name, namespace: route.namespace },
      workload,
      fact: `RefNotPermitted: ${message!.trim()}`,
      groups: {
        route: route.name,
        route_ns: route.namespace ?? '',
        backend: name!,
        backend_ns: ns!,
        grants: grants.length
          ? `; the ReferenceGrant${grants.length > 1 ? 's' : ''} in ${ns} (${grants.map((g) => g.name).join(', ')}) permit${grants.length > 1 ? '' : 's'} only the Service${allowed.length > 1 ? 's' : ''} ${allowed.map((a) => (a.name ? a.name : 'any')).join(', ') || 'none'}`
          : `; no ReferenceGrant read in ${ns} permits it`,
        grant_fix: grants[0]
          ? `Add {kind: Service, name: ${name}} to the "to" list of the ReferenceGrant ${grants[0].name} in ${ns} (or drop its name to allow every Service there)`
          : `Create a ReferenceGrant in ${ns} from HTTPRoutes of ${route.namespace ?? "the route's namespace"} to the Service ${name}`,
      },
      where: 'condition',
      source: route.source,
    });
  }
  return out;
}

/** an Envoy access-log line of a connection sent to the BlackHoleCluster (REGISTRY_ONLY mesh) */
export const BLACKHOLE = /\bBlackHoleCluster\b/;
/** an app's failing call to an external https/http URL: the host */
const EXTERNAL_CALL =
  /https?:\/\/((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?[^\s"\\]*[^\n]*?(?:EOF|reset by peer|connection reset|handshake|refused|closed|502|503)/i;

/** "*.example.com" covers "api.example.com" */
const covers = (pattern: string, host: string) =>
  pattern === host || (pattern.startsWith('*.') && host.endsWith(pattern.slice(1)));

/**
 * Istio's outboundTrafficPolicy REGISTRY_ONLY: a sidecar sends a connection to a host no
 * ServiceEntry registers to the BlackHoleCluster (closed at once: the app sees EOF / a reset).
 * The hosts the app fails to call, matched against the ServiceEntries read.
 */
function unregisteredExternalHosts(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const entries = model.list('serviceentry').filter((e) => e.fields['hosts'] !== undefined);
  for (const proxy of model.logs) {
    if (proxy.previous || !proxy.pod) continue;
    const hole = proxy.lines.filter((x) => BLACKHOLE.test(x.text));
    if (!hole.length) continue;
    const pod = model.get('pod', proxy.pod, proxy.namespace);
    const workload = pod ? model.workloadOf(pod).name : proxy.pod;
    // the same pod's app lines: the external hosts it fails to call
    const failing = model.logs
      .filter((l) => !l.previous && l.pod === proxy.pod && l.namespace === proxy.namespace)
      .flatMap((l) => l.lines)
      .map((x) => ({ text: x.text, host: EXTERNAL_CALL.exec(x.text)?.[1]?.toLowerCase() }))
      .filter(
        (x): x is { text: string; host: string } =>
          !!x.host && !/\.(?:svc|local|internal)$/.test(x.host),
      );
    const hosts = [...new Set(failing.map((x) => x.host))];
    const registered = entries.flatMap((e) =>
      (e.fields['hosts'] ?? '')
        .split(',')
        .filter(Boolean)
        .map((h) => ({ entry: e, host: h })),
    );
    const unregistered = hosts.filter((h) => !registered.some((r) => covers(r.host, h)));
    // every host the app fails on is registered: the black hole is about something else
    if (hosts.length && !unregistered.length) continue;
    const key = `${proxy.namespace ?? ''}/${workload}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const host = unregistered[0];
    const line = failing.find((x) => x.host === host)?.text ?? hole.at(-1)!.text;
    const mode = model
      .list('configmap')
      .map(
        (c) =>
          /outboundTrafficPolicy(?:\\n|[\s:{"])*mode"?\s*:\s*"?([A-Z_]+)/.exec(
            c.fields['data'] ?? '',
          )?.[1],
      )
      .find(Boolean);
    const ns = pod?.namespace ?? proxy.namespace;
    const inNs = registered.filter((r) => !r.entry.namespace || r.entry.namespace === ns);
    out.push({
      entry,
      object: pod ? { kind: 'pod', name: pod.name, namespace: pod.namespace } : undefined,
      workload,
      fact: line.trim(),
      groups: {
        host: host ?? 'an external host',
        blackhole: hole.at(-1)!.text.trim(),
        mode_source: mode
          ? ` (the mesh configuration sets outboundTrafficPolicy mode ${mode})`
          : '',
        entries: inNs.length
          ? `; the ServiceEntries read register only ${[...new Set(inNs.map((r) => r.host))].join(', ')}`
          : '; no ServiceEntry read registers it',
        entry_ns: ns ?? '<namespace>',
      },
      where: 'log',
      source: proxy.source,
    });
  }
  return out;
}
