/**
 * The template variables of the round22 (r22i) rules (cause-catalog.data.ts, its "round22 (r22i)"
 * block): the CPU limit a LimitRange default gave a container whose own spec sets none (the
 * LimitRanger admission plugin's annotation says so), and the load balancer annotations of a
 * Service the in-tree cloud controller found no subnets for.
 */
import type { FindingContext } from './finding-vars';
import { jsonField } from './model';
import { linesOf } from './finding-vars-configuration';

type Vars = Record<string, string>;

/**
 * A CPU limit nobody wrote: the pods carry the LimitRanger note "LimitRanger plugin set: cpu limit
 * for container X", so the limit came from the namespace's LimitRange default at admission, and
 * a container held to it is throttled (CFS quota) while it starts and under load.
 */
export function cpuLimitFrom({ model, pods, container: c }: FindingContext): Vars {
  const ranger = pods.find((p) => /\bcpu limit\b/i.test(p.fields['limitRanger'] ?? ''));
  const limit = c?.limits['cpu'];
  if (!ranger || !limit) return { cpu_limit_from: '', cpu_limit_fix: '' };
  const lr = model.list('limitrange', ranger.namespace).map((x) => x.name);
  const which = lr.length ? ` ${lr.join(', ')}` : '';
  return {
    cpu_limit_from: `. Its CPU limit ${limit} is not in its pod spec: the namespace's LimitRange${which} default set it at admission ("${ranger.fields['limitRanger']}"), so the container is throttled at ${limit} of CPU (CFS quota) and starts and answers slowly`,
    cpu_limit_fix: ` Set an explicit CPU limit (or none) in the pod spec of the workload, or lower or remove the default cpu limit of the LimitRange${which}: a rollback gets the same default.`,
  };
}

/** the load balancer annotations of the Service the finding is about */
function lbAnnotations({ obj }: FindingContext): Vars {
  const ann = jsonField(obj, 'annotations');
  const lb = Object.entries(ann).filter(([k]) => /aws-load-balancer-/.test(k));
  const internal = ann['service.beta.kubernetes.io/aws-load-balancer-internal'];
  return {
    lb_annotations: lb.length
      ? ` Its annotations: ${lb
          .slice(0, 4)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}${
          internal
            ? ''
            : ' (no aws-load-balancer-internal, which is what the in-tree controller reads; aws-load-balancer-scheme is read only by the AWS Load Balancer Controller)'
        }.`
      : '',
  };
}

/**
 * A name that reaches the wrong server through the pod's own search list: its dnsConfig adds a
 * search domain (and ndots), the name has fewer dots than ndots, so the resolver tries
 * <name>.<domain> first, and the certificate that answered is one of that domain (a wildcard
 * record there answers every name). The address the app logs it dialled for the name, if any.
 */
function dnsSearch({ f, model, pod, obj }: FindingContext): Vars {
  const host = f.groups['host'] ?? '';
  const valid = (f.groups['valid'] ?? '').toLowerCase();
  const ns = f.object?.namespace;
  const spec =
    [pod, obj, model.get('deployment', f.workload, ns)].find((o) => o?.fields['dnsSearches']) ??
    undefined;
  const generic = {
    dns_search: '',
    dns_search_fix: `Find which server answers for ${host} from a pod of ${f.workload} (\`getent hosts ${host}\`: a proxy, a resolver setting or a DNS record that points elsewhere), and make the name resolve to ${host}'s own servers; the certificate of ${host} itself is not what fails.`,
  };
  if (!spec || !host) return generic;
  const ndots = Number(spec.fields['dnsNdots'] ?? '5');
  const dots = host.split('.').length - 1;
  const domain = (spec.fields['dnsSearches'] ?? '')
    .split(',')
    .find((d) => d && valid.includes(d.toLowerCase()));
  if (!domain || dots >= ndots) return generic;
  const esc = host.replace(/[.]/g, '\\.');
  const dialled = linesOf(model, pod?.name, ns)
    .filter((l) => new RegExp(`\\b${esc}\\b`).test(l))
    .map((l) => /\b(\d{1,3}(?:\.\d{1,3}){3}:\d+)\b/.exec(l)?.[1])
    .find(Boolean);
  return {
    dns_search: `. The pod's dnsConfig adds the search domain ${domain} (searches: ${spec.fields['dnsSearches']}, ndots ${ndots}): ${host} has ${dots} dots, fewer than ${ndots}, so the resolver tries ${host}.${domain} first, and a record in ${domain} answers it (a wildcard answers every name)${dialled ? `: the app dials ${dialled} for ${host}` : ''}, a server of ${domain}, not ${host}`,
    dns_search_fix: `Remove the search domain ${domain} (or the ndots ${ndots} option) from the dnsConfig of ${f.workload}, or call ${host} by its fully qualified name with a trailing dot (${host}.); a short name that needs ${domain} can be written out in full instead. Nothing is wrong with ${host}'s certificate.`,
  };
}

const REFUSED_UPSTREAM =
  /connect\(\) failed \(111: Connection refused\) while connecting to upstream[^\n]*upstream: "https?:\/\/(\d{1,3}(?:\.\d{1,3}){3}):/;
const STOP_LINE = /\bSIG(?:TERM|INT)\b[^\n"]*/;

/**
 * The ingress's connections refused by a pod that was being stopped: the refused address is a pod
 * of the workload that is terminating (or the kubelet stopped, or that logs SIGTERM), and no
 * container of the workload has a preStop hook, so the app closes its port on SIGTERM while the
 * endpoint removal has not reached the ingress yet (every rollout's scale-down does it).
 */
function stoppedWhileServing({ f, model }: FindingContext): Vars {
  const none = { stopping: '', stopping_fix: '' };
  const ns = f.object?.namespace;
  const refused = new Set(
    model.logs.flatMap((l) =>
      l.lines.map((x) => REFUSED_UPSTREAM.exec(x.text)?.[1]).filter((x): x is string => !!x),
    ),
  );
  if (!refused.size) return none;
  const pods = model.podsOf('deployment', f.workload, ns);
  const killed = (name: string) =>
    model.events.find(
      (e) =>
        e.reason === 'Killing' && e.object?.name === name && /^Stopping container/i.test(e.message),
    );
  const sigterm = (name: string) =>
    model.logs
      .filter((l) => l.pod === name)
      .flatMap((l) => l.lines.map((x) => STOP_LINE.exec(x.text)?.[0]))
      .find(Boolean);
  const stopped = pods.find(
    (p) =>
      refused.has(p.fields['podIP'] ?? '') &&
      (p.fields['terminating'] === 'true' || killed(p.name) || sigterm(p.name)),
  );
  if (!stopped) return none;
  const specs = [...pods, model.get('deployment', f.workload, ns)].filter(
    (o) => o?.fields['preStop'] !== undefined,
  );
  if (!specs.length || specs.some((o) => o!.fields['preStop'] !== 'none')) return none;
  const said = sigterm(stopped.name);
  const line = said && said.length > 120 ? `${said.slice(0, 120)}…` : said;
  const downs = new Set(
    model.events
      .filter(
        (e) =>
          e.reason === 'ScalingReplicaSet' &&
          e.object?.name === f.workload &&
          /^Scaled down replica set/i.test(e.message),
      )
      .map((e) => e.message.split(' ')[4]),
  ).size;
  return {
    stopping: `. The refused address ${stopped.fields['podIP']} is pod ${stopped.name}, which was being stopped${line ? ` ("${line}")` : ' (the kubelet sent it SIGTERM)'} while it was still in the Service's endpoints: its containers have no preStop hook, so the app closes its port as soon as it gets SIGTERM, before the endpoint removal reaches the ingress, and the requests sent to it meanwhile are refused${downs > 1 ? ` (each rollout's scale-down does it: ${downs} old ReplicaSets scaled down)` : ''}`,
    stopping_fix: `Give the container of ${f.workload} a preStop hook (e.g. \`sleep 10\`) so it keeps serving while its endpoint is removed, or have it keep serving a few seconds after SIGTERM before closing; keep terminationGracePeriodSeconds above that delay. `,
  };
}

/** Calico's felix: the VXLAN tunnel device's MTU it set ("new=1500 old=1450"), or parsed */
const FELIX_VXLAN_MTU =
  /VXLAN device MTU needs to be updated[^\n]*?new=(\d+)[^\n]*|Parsed value for VXLANMTU: (\d+)[^\n]*/;

/**
 * The ingress's requests time out while the CNI's VXLAN tunnel MTU is above 1450: VXLAN adds 50
 * bytes, so on nodes whose NIC MTU is the usual 1500 the full-size packets of large responses
 * between nodes exceed the wire MTU and are dropped (small requests and same-node traffic pass).
 * Said with felix's own line.
 */
function tunnelMtu({ f, model }: FindingContext): Vars {
  const none = { tunnel_mtu: '', tunnel_mtu_fix: '' };
  if (!/timed out/i.test(f.fact)) return none;
  const hits = model.logs.flatMap((l) =>
    l.lines
      .map((x) => FELIX_VXLAN_MTU.exec(x.text))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => ({ line: m[0], mtu: Number(m[1] ?? m[2]) })),
  );
  const hit = hits.find((h) => h.line.includes('needs to be updated')) ?? hits[0];
  if (!hit || !(hit.mtu > 1450 && hit.mtu <= 1500)) return none;
  const cm = model.list('configmap').find((c) => jsonField(c, 'data')['veth_mtu']);
  const veth = cm ? ` (ConfigMap ${cm.name}: veth_mtu "${jsonField(cm, 'data')['veth_mtu']}")` : '';
  return {
    tunnel_mtu: `. Calico's VXLAN tunnel MTU is ${hit.mtu}${veth} ("${hit.line.length > 140 ? `${hit.line.slice(0, 140)}…` : hit.line}"): VXLAN encapsulation adds 50 bytes, so on nodes whose NIC MTU is 1500 a full-size packet of a large response between pods on different nodes no longer fits the wire and is dropped, while small requests and traffic within a node still pass (the requests hang until the proxy times out)`,
    tunnel_mtu_fix: `Set the VXLAN MTU to the NIC MTU minus 50 (1450 on a 1500-byte network; veth_mtu in the calico-config ConfigMap, or 0 to let Calico detect it), restart calico-node and then the pods whose interfaces got the larger MTU. `,
  };
}

export const R22I_VARS: Record<string, (x: FindingContext) => Vars> = {
  ingress_upstream_unavailable: (x) => ({ ...stoppedWhileServing(x), ...tunnelMtu(x) }),
  lb_no_suitable_subnets: lbAnnotations,
  tls_hostname_mismatch: dnsSearch,
};

export const R22I_CLASS_VARS: Record<string, (x: FindingContext) => Vars> = {
  probe_failure: cpuLimitFrom,
};
