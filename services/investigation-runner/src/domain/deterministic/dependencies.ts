import { matchesLabels, parseLabelSelector } from '@inquest/kube';
import type { ClusterModel } from './model';
import type { IngressBackend, ObjectView } from './observe';
import { newObject } from './observe/views';

/** A workload the subject's failing requests name (by Service DNS name, URL or host=). */
export interface Dependency {
  /** the Service (or workload) name as the logs say it */
  host: string;
  service?: ObjectView;
  /** what backs it: a Deployment or StatefulSet */
  workload?: ObjectView;
  namespace?: string;
  /** the last failing line of the subject that named it */
  line?: string;
}

/** a log line about a failed call (not an access log of a healthy request) */
const FAILING =
  /\b(error|err|fail(ed|ure)?|refused|timed? ?out|timeout|unavailable|reset|denied|too many|5\d\d|exception|cannot|unable)\b|"status"\s*:\s*5\d\d|status=5\d\d|\blag unknown\b|_behind_(?:source|master)=NULL/i;

/** hosts a line names: `name.ns.svc`, `http://name:port/`, `host=name`, `name:5432` */
function hostsIn(line: string): { name: string; namespace?: string }[] {
  const out: { name: string; namespace?: string }[] = [];
  for (const m of line.matchAll(/\b([a-z][a-z0-9-]*)\.([a-z][a-z0-9-]*)\.svc\b/g))
    out.push({ name: m[1]!, namespace: m[2]! });
  for (const m of line.matchAll(
    /\b(?:https?|grpcs?|amqps?|redis|postgres(?:ql)?|mysql|mongodb):\/\/(?:[^@/\s"]*@)?([a-z][a-z0-9-]*)(?=[:/"\s]|$)/g,
  ))
    out.push({ name: m[1]! });
  for (const m of line.matchAll(/\bhost=["'`]?([a-z][a-z0-9-]*)(?=[\s.:"'`]|$)/g))
    out.push({ name: m[1]! });
  for (const m of line.matchAll(/(?<![\w.-])([a-z][a-z0-9-]*[a-z0-9]):\d{2,5}\b/g))
    out.push({ name: m[1]! });
  return out;
}

/** an IPv4 address and port a line names ("connect ECONNREFUSED 172.20.249.41:9200"): the address */
export const IP_PORT = /(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3}):\d{2,5}\b/g;

/** the Services a line names by their cluster IP */
function servicesByIp(model: ClusterModel, line: string): { name: string; namespace?: string }[] {
  const out: { name: string; namespace?: string }[] = [];
  for (const m of line.matchAll(IP_PORT)) {
    const svc = model.list('service').find((s) => s.fields['clusterIP'] === m[1]);
    if (svc) out.push({ name: svc.name, namespace: svc.namespace });
  }
  return out;
}

/** a data store or broker a log line names by product ("elasticsearch: all shards failed") */
const PRODUCT =
  /\b(elasticsearch|opensearch|postgres(?:ql)?|mysql|mariadb|redis|kafka|rabbitmq|mongo(?:db)?|cassandra|zookeeper|memcached|clickhouse)\b/i;
/** the words a workload of that product is named with (es-data, pg-main, kafka-broker) */
const PRODUCT_WORDS: Record<string, string[]> = {
  elasticsearch: ['es', 'elasticsearch', 'elastic', 'opensearch'],
  opensearch: ['opensearch', 'os', 'es'],
  postgres: ['pg', 'postgres', 'postgresql'],
  postgresql: ['pg', 'postgres', 'postgresql'],
  mysql: ['mysql', 'mariadb'],
  mariadb: ['mariadb', 'mysql'],
  redis: ['redis'],
  kafka: ['kafka'],
  rabbitmq: ['rabbitmq', 'rabbit'],
  mongo: ['mongo', 'mongodb'],
  mongodb: ['mongo', 'mongodb'],
  cassandra: ['cassandra'],
  zookeeper: ['zookeeper', 'zk'],
  memcached: ['memcached'],
  clickhouse: ['clickhouse'],
};

/**
 * The workloads named for the product a failing line names, when the line names no host: a client
 * that logs "elasticsearch: all shards failed" calls the es-data StatefulSet. Its own namespace's
 * first; else those of the other namespaces read (a shared broker in its own namespace, "kafka"),
 * the namespace named for the product first.
 */
function productWorkloads(
  model: ClusterModel,
  line: string,
  namespace: string | undefined,
): { name: string; kind: string; namespace?: string }[] {
  const product = PRODUCT.exec(line)?.[1]?.toLowerCase();
  if (!product || !namespace) return [];
  const words = PRODUCT_WORDS[product] ?? [product];
  const named = (x: string) => x.split('-').some((w) => words.includes(w));
  const found = new Map<string, { name: string; kind: string; namespace?: string }>();
  for (const p of model.list('pod')) {
    const w = model.workloadOf(p);
    if (p.namespace && named(w.name))
      found.set(`${p.namespace}/${w.name}`, { ...w, namespace: p.namespace });
  }
  const all = [...found.values()];
  const own = all.filter((w) => w.namespace === namespace);
  if (own.length) return own;
  const home = all.filter((w) => named(w.namespace!));
  return home.length ? home : all;
}

/**
 * The hosts a pod is configured to reach the product a failing line names by: its env's URLs of
 * that product (REDIS_URL=redis://session-store.identity.svc:6379) and variables named for it
 * (KAFKA_BOOTSTRAP_SERVERS, REDIS_HOST). The line says "redis" but not which one.
 */
function configuredHosts(
  pod: ObjectView | undefined,
  line: string,
): { name: string; namespace?: string }[] {
  const product = PRODUCT.exec(line)?.[1]?.toLowerCase();
  if (!product || !pod) return [];
  const words = PRODUCT_WORDS[product] ?? [product];
  const out: { name: string; namespace?: string }[] = [];
  for (const c of pod.containers)
    for (const [k, v] of Object.entries(c.env)) {
      if (
        k === '__args' ||
        !k
          .toLowerCase()
          .split('_')
          .some((w) => words.includes(w))
      )
        continue;
      const hosts = hostsIn(v);
      // a bare host name: REDIS_HOST=session-store, or session-store.identity
      const bare = /^([a-z][a-z0-9-]*)(?:\.([a-z][a-z0-9-]*))?(?:\.svc(?:\.[\w.]+)?)?$/.exec(v);
      if (!hosts.length && bare) hosts.push({ name: bare[1]!, namespace: bare[2] });
      out.push(...hosts);
    }
  return out;
}

/** An object known only by its name: a workload seen through its pods, a Service an Ingress names. */
const stubView = (kind: string, name: string, namespace?: string): ObjectView => ({
  ...newObject(kind, name, 'pods'),
  namespace,
});

/** The workload of that name that pods read belong to (session-store-0: StatefulSet session-store). */
function podsWorkload(model: ClusterModel, name: string, ns?: string): ObjectView | undefined {
  const pod = model
    .list('pod', ns)
    .find((p) => (!ns || p.namespace === ns) && model.workloadOf(p).name === name);
  return pod ? stubView(model.workloadOf(pod).kind, name, pod.namespace) : undefined;
}

/** `app=web,tier=frontend`, as Kubernetes reads it; undefined when it cannot be read */
export function selectorOf(selector: string) {
  try {
    return parseLabelSelector(selector);
  } catch {
    return undefined;
  }
}

/** The pods of the workload a Service is named for (`web` -> web, web-api). */
export function podsNamedFor(model: ClusterModel, svc: ObjectView): ObjectView[] {
  return model.list('pod', svc.namespace).filter((p) => {
    if (p.namespace !== svc.namespace) return false;
    const w = model.workloadOf(p).name;
    return w === svc.name || w.startsWith(`${svc.name}-`);
  });
}

/** An Ingress's rules as observe() recorded them (host, path, backend service and port). */
export function ingressBackends(ing: ObjectView): IngressBackend[] {
  try {
    return JSON.parse(ing.fields['backends'] ?? '[]') as IngressBackend[];
  } catch {
    return [];
  }
}

/**
 * The Deployment/StatefulSet behind a Service: the one of its name, else one whose name extends it
 * (or it extends), else the workload of the pods its selector matches (Service elasticsearch,
 * selector app=es-data: StatefulSet es-data).
 */
export function backingWorkload(model: ClusterModel, svc: ObjectView): ObjectView | undefined {
  const candidates = [
    ...model.list('deployment', svc.namespace),
    ...model.list('statefulset', svc.namespace),
  ];
  const named =
    candidates.find((w) => w.name === svc.name) ??
    candidates.find((w) => svc.name.startsWith(w.name) || w.name.startsWith(svc.name));
  if (named) return named;
  const reqs = selectorOf(svc.fields['selector'] ?? '');
  if (!reqs?.length) return undefined;
  // only pods whose labels were read can tell
  const pod = model
    .list('pod', svc.namespace)
    .find(
      (p) =>
        p.namespace === svc.namespace &&
        Object.keys(p.labels).length &&
        matchesLabels(p.labels, reqs),
    );
  if (!pod) return undefined;
  const w = model.workloadOf(pod);
  return candidates.find((c) => c.name === w.name) ?? stubView(w.kind, w.name, svc.namespace);
}

/**
 * What the subjects' workloads call and fail on: hosts named in their failing log lines that
 * resolve to a Service (or a workload) other than themselves. Most named first.
 */
export function failingDependencies(
  model: ClusterModel,
  workloads: Set<string>,
  defaultNamespace?: string,
): Dependency[] {
  const counts = new Map<string, { n: number; dep: Dependency }>();
  for (const l of model.logs) {
    const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
    const w = pod ? model.workloadOf(pod).name : undefined;
    if (!w || !workloads.has(w)) continue;
    for (const line of l.lines.slice(-300)) {
      if (line.level !== 'error' && !FAILING.test(line.text)) continue;
      type Host = { name: string; namespace?: string; kind?: string };
      const resolve = (h: Host): Dependency | undefined => {
        if (workloads.has(h.name)) return undefined;
        const ns = h.namespace ?? l.namespace ?? defaultNamespace;
        const service = model
          .list('service')
          .find((s) => s.name === h.name && (!ns || !s.namespace || s.namespace === ns));
        const workload = service
          ? backingWorkload(model, service)
          : ([...model.list('deployment', ns), ...model.list('statefulset', ns)].find(
              (x) => x.name === h.name,
            ) ??
            // a workload known from its pods only (named for the product the line names, or
            // the name a Service would have when Services were not listed)
            (h.kind ? stubView(h.kind, h.name, ns) : podsWorkload(model, h.name, ns)));
        if ((!service && !workload) || (workload && workloads.has(workload.name))) return undefined;
        return { host: h.name, service, workload, namespace: service?.namespace ?? ns };
      };
      // the hosts the line names; else the ones the pod's env configures for the product the
      // line names; else the workloads named for that product
      const named = [...hostsIn(line.text), ...servicesByIp(model, line.text)];
      let deps = named.map(resolve);
      if (!named.length) {
        deps = configuredHosts(pod, line.text).map(resolve);
        // a Service whose pods are not known says less than the workloads named for the product
        if (!deps.some((d) => d?.workload)) {
          const products = productWorkloads(model, line.text, l.namespace).map(resolve);
          if (products.some(Boolean)) deps = products;
        }
      }
      for (const dep of deps) {
        if (!dep) continue;
        const key = `${dep.namespace ?? ''}/${dep.host}`;
        const prev = counts.get(key);
        if (prev) {
          prev.n++;
          prev.dep.line = line.text;
        } else counts.set(key, { n: 1, dep: { ...dep, line: line.text } });
      }
    }
  }
  return [...counts.values()].sort((a, b) => b.n - a.n).map((x) => x.dep);
}

/** a connection or lookup that got no answer */
export const NETWORK_TIMEOUT =
  /i\/o timeout|connection timed out|connect timeout|ETIMEDOUT|EAI_AGAIN/i;

/** the per-node network agents' pods: Service routing (kube-proxy) and the pod network (CNI) */
export const NODE_AGENT =
  /^(?:kube-proxy|aws-node|calico-node|cilium|kube-router|kube-flannel|flannel|weave-net|antrea-agent|canal|kindnet)-[a-z0-9]+$/;

/** a connection the other side closed or reset before answering */
export const CONNECTION_RESET =
  /Connection reset by peer|ECONNRESET|connection reset|upstream connect error or disconnect\/reset before headers|Connection aborted/i;
/** a mesh's sidecar proxy container */
export const MESH_PROXY = /^(?:istio-proxy|linkerd-proxy)$/;
/** a connection an app could not make: refused, reset, or no route (what an app that starts before its sidecar logs) */
export const CONNECT_FAILED =
  /ECONNREFUSED|connection refused|ECONNRESET|connection reset|EHOSTUNREACH|no route to host/i;

/** a pod sandbox the CNI gave no IP address (a node's or subnet's addresses used up) */
export const NO_POD_IP =
  /failed to assign an IP address|failed to allocate (?:an? )?IP(?:v4)? address|no (?:more )?(?:free )?IP addresses? (?:available|left)|no IP addresses available in range set|InsufficientFreeAddressesInSubnet/i;

/** a volume whose CSI driver the node's kubelet has not registered */
export const CSI_NOT_REGISTERED =
  /driver name (?<driver>[\w.-]+) not found in the list of registered CSI drivers/;

/** the per-node plugin pods of a CSI driver (ebs-csi-node-x, csi-rbdplugin-x, ...) */
export const CSI_NODE_PLUGIN = /csi[a-z0-9-]*node|node[a-z0-9-]*csi|csi-?[a-z]*plugin/;

/** pods of an ingress controller or gateway proxy (they log every request's upstream) */
export const INGRESS_CONTROLLER =
  /^(?:ingress-nginx|nginx-ingress|rke2-ingress-nginx|ingress-controller|traefik|haproxy-ingress|kubernetes-ingress|contour|envoy-gateway|kong|istio-ingressgateway)/;

/**
 * The workload an ingress controller's log line is about: the Service its upstream name says
 * (ingress-nginx's `[shop-account-api-80]`: namespace, service, port), else the backend of the
 * Ingress rule for the line's host and path.
 */
export function upstreamWorkload(model: ClusterModel, line: string): ObjectView | undefined {
  const named = /\[([a-z0-9][a-z0-9-]*)-(\d+|[a-z][a-z0-9-]*)\]/.exec(line)?.[1];
  const services = model.list('service');
  let svc = named
    ? services.find((s) => s.namespace && named === `${s.namespace}-${s.name}`)
    : undefined;
  if (!svc) {
    const host = /\bhost: "([^"]+)"|\bserver: ([\w.-]+)/.exec(line);
    const h = host?.[1] ?? host?.[2];
    const path = /"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)/.exec(line)?.[1] ?? '/';
    const rules = h
      ? model
          .list('ingress')
          .flatMap((i) => ingressBackends(i).map((b) => ({ b, ns: i.namespace })))
          .filter(({ b }) => b.host === h && path.startsWith(b.path || '/'))
          .sort((x, y) => (y.b.path ?? '').length - (x.b.path ?? '').length)
      : [];
    const rule = rules[0];
    if (rule)
      svc =
        services.find((s) => s.name === rule.b.service && s.namespace === rule.ns) ??
        stubView('service', rule.b.service, rule.ns);
  }
  if (!svc) return undefined;
  return backingWorkload(model, svc);
}

/**
 * The workload behind the Ingress whose TLS Secret (or cert-manager Certificate) a line names as
 * `namespace/name` (ingress-nginx: 'SSL certificate "shop/web-tls"'; cert-manager: key="shop/web-tls"):
 * the Ingress of that namespace that terminates TLS with it, else the namespace's only Ingress.
 */
export function tlsSecretWorkload(model: ClusterModel, line: string): ObjectView | undefined {
  const m =
    /SSL certificate "?([a-z0-9][\w.-]*)\/([\w.-]+?)"?[\s:]/.exec(line) ??
    /\bkey="([a-z0-9][\w.-]*)\/([\w.-]+)"/.exec(line);
  if (!m) return undefined;
  const [, ns, key] = m;
  // cert-manager names a CertificateRequest / Order <certificate>-<revision>[-<hash>]
  const names = [key!, key!.replace(/-\d+(?:-\d+)?$/, '')];
  const ingresses = model.list('ingress', ns).filter((i) => i.namespace === ns);
  const ing =
    ingresses.find((i) =>
      (i.fields['tlsSecrets'] ?? '').split(',').some((x) => names.includes(x)),
    ) ?? (ingresses.length === 1 ? ingresses[0] : undefined);
  const b = ing ? ingressBackends(ing)[0] : undefined;
  if (!b) return undefined;
  const svc = model.get('service', b.service, ns) ?? stubView('service', b.service, ns);
  return backingWorkload(model, svc) ?? stubView('deployment', b.service, ns);
}
