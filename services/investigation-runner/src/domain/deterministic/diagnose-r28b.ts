/**
 * Round28 (r28b) rules that compare objects (cause-catalog.data.ts, its "round28 (r28b)" block).
 *
 * A memory request or limit written with a lowercase "m" ("1024m"): in Kubernetes quantities m is
 * milli, so the container gets about one byte, not a MiB. The kubelet sizes the memory-backed
 * volumes of the pod (the projected service-account token, Secrets, emptyDir medium Memory) to
 * its memory limit, so their setup fails with "no space left on device" and the pod never leaves
 * ContainerCreating (or the runtime refuses to start a container below its minimum).
 *
 * An init container that waits for a Service with busybox's nslookup and a short name ("until
 * nslookup orders-db"): busybox from 1.29 on has its own nslookup that does not apply the pod's
 * DNS search domains the way 1.28's did, so it answers "** server can't find orders-db: NXDOMAIN"
 * for a Service that exists, and the wait loop never ends (the pod stays Init:0/1). Known from the
 * busybox image's issues (docker-library/busybox #48, #61); busybox:1.28 is the version that works.
 *
 * A Service whose selector also matches the pods of another workload (a label both charts set,
 * "app=ledger"): the Endpoints list those pods too, they do not listen on the targetPort, and the
 * share of connections kube-proxy sends them is refused while the Service's own pods are healthy.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { matchesLabels } from '@inquest/kube';
import { podsNamedFor, selectorOf } from './dependencies';
import { quantity, servicePorts, type ClusterModel } from './model';
import type { ContainerView, ObjectView } from './observe/views';

const hasFinishedPod = (p: ObjectView) => /Succeeded|Completed|Failed/.test(p.status ?? '');

export function r28bFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const milli = entries.find((e) => e.id === 'memory_quantity_millibytes');
  const nslookup = entries.find((e) => e.id === 'busybox_nslookup_short_name');
  const selects = entries.find((e) => e.id === 'service_selects_other_workload');
  return [
    ...(milli ? millibyteMemory(model, milli) : []),
    ...(nslookup ? busyboxShortNames(model, nslookup) : []),
    ...(selects ? servicesSelectingOthers(model, selects) : []),
  ];
}

/** a memory quantity in millis ("1024m"): a fraction of a byte or a few bytes */
const MILLI = /^\s*\d+(?:\.\d+)?m\s*$/;

function running(pod: ObjectView): boolean {
  return pod.status === 'Running' && pod.containers.every((c) => c.init || !c.waiting);
}

/** The container of that name in the workload's other pods (those of another template too). */
function sameContainerElsewhere(
  model: ClusterModel,
  pod: ObjectView,
  workload: string,
  name: string,
): ContainerView[] {
  return model
    .list('pod', pod.namespace)
    .filter((p) => p !== pod && model.workloadOf(p).name === workload)
    .flatMap((p) => p.containers.filter((x) => x.name === name));
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
      const before = sameContainerElsewhere(model, pod, workload, c.name).find(
        (x) => x.limits['memory'] && !MILLI.test(x.limits['memory']),
      );
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

/** busybox's nslookup failing a name: "** server can't find orders-db: NXDOMAIN" */
const CANT_FIND = /\*\* server can't find ([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.)?: NXDOMAIN/;
const BUSYBOX = /(?:^|\/)busybox:(\d+)\.(\d+)(?:\.\d+)?\b/;

/**
 * The init container of a pod still initializing that runs busybox 1.29 or later: the one a log
 * names, else (a log read without a container name) the pod's only such init container
 */
export function nslookupInit(pod: ObjectView, container?: string): ContainerView | undefined {
  if (running(pod)) return undefined;
  const later = (x: ContainerView) => {
    const v = BUSYBOX.exec(x.image ?? '');
    return !!v && (Number(v[1]) > 1 || Number(v[2]) >= 29);
  };
  const inits = pod.containers.filter((x) => x.init && later(x));
  if (container) return inits.find((x) => x.name === container);
  return inits.length === 1 ? inits[0] : undefined;
}

/** the short name a busybox nslookup could not find, in a log line */
export const nslookupShortName = (text: string) => CANT_FIND.exec(text)?.[1];

function busyboxShortNames(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const log of model.logs) {
    if (!log.pod) continue;
    const pod = model.get('pod', log.pod, log.namespace);
    if (!pod || running(pod)) continue;
    const c = nslookupInit(pod, log.container);
    const line = c && log.lines.find((x) => CANT_FIND.test(x.text));
    const host = line && CANT_FIND.exec(line.text)?.[1];
    // a short name of a Service that exists in the pod's namespace: the name is right
    if (!line || !host || !model.get('service', host, pod.namespace)) continue;
    const workload = model.workloadOf(pod).name;
    const key = `${pod.namespace ?? ''}/${workload}/${c.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // the same init container in the pods of another template, with the busybox it ran there
    const before = sameContainerElsewhere(model, pod, workload, c.name).find(
      (x) => x.init && x.image && x.image !== c.image && BUSYBOX.test(x.image),
    );
    const fqdn = `${host}.${pod.namespace ?? '<namespace>'}.svc.cluster.local`;
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload,
      fact: line.text.trim(),
      groups: {
        container: c.name,
        image: c.image!,
        host,
        fqdn,
        nslookup_before: before
          ? `; the pods of the previous template ran ${before.image} in ${c.name} and got past it, so the change of the busybox image did it`
          : '',
        nslookup_pin: before ? before.image!.replace(/^.*\//, '') : 'busybox:1.28',
      },
      where: 'log',
      source: log.source,
    });
  }
  return out;
}

/** a container port list that serves the targetPort (a number, or a port's name) */
const serves = (p: ObjectView, target: string) =>
  p.containers.some((c) =>
    /^\d+$/.test(target) ? c.ports.includes(target) : (c.portNames ?? []).includes(target),
  );

/**
 * The pods a Service's selector matches (labels read), and the workloads it is named for, when
 * its own pods are among them
 */
function selectedPods(
  model: ClusterModel,
  svc: ObjectView,
): { own: Set<string>; matched: ObjectView[] } | undefined {
  const reqs = selectorOf(svc.fields['selector'] ?? '');
  if (!reqs?.length || !svc.namespace) return undefined;
  const own = new Set(podsNamedFor(model, svc).map((p) => model.workloadOf(p).name));
  if (!own.size) return undefined;
  const matched = model
    .list('pod', svc.namespace)
    .filter(
      (p) =>
        p.kind === 'pod' &&
        p.namespace === svc.namespace &&
        !hasFinishedPod(p) &&
        Object.keys(p.labels).length &&
        matchesLabels(p.labels, reqs),
    );
  return matched.some((p) => own.has(model.workloadOf(p).name)) ? { own, matched } : undefined;
}

/**
 * Clients refused while a Service's selector matches pods of another workload whose ports were not
 * read: one pod of each such workload, to read whole (does it serve the targetPort?)
 */
export function unreadSelectedPods(model: ClusterModel): ObjectView[] {
  const refusals = model.logs
    .flatMap((l) => l.lines)
    .filter((x) => /refused|ECONNREFUSED/i.test(x.text));
  if (!refusals.length) return [];
  const out: ObjectView[] = [];
  for (const svc of model.list('service')) {
    const sel = selectedPods(model, svc);
    if (!sel || !refusals.some((x) => namesService(x.text, svc))) continue;
    // pods of other workloads the selector may match: labels not read, or ports not read
    const byWorkload = new Map<string, ObjectView>();
    for (const p of model.list('pod', svc.namespace)) {
      if (p.kind !== 'pod' || p.namespace !== svc.namespace || hasFinishedPod(p)) continue;
      const w = model.workloadOf(p).name;
      if (sel.own.has(w) || byWorkload.has(w)) continue;
      const unlabeled = !Object.keys(p.labels).length;
      if (unlabeled || (sel.matched.includes(p) && !p.containers.some((c) => c.ports.length)))
        byWorkload.set(w, p);
    }
    // the workloads named like the Service's (components of one app share labels) first
    const stem = svc.name.split('-')[0]!;
    out.push(
      ...[...byWorkload.entries()]
        .sort(([a], [b]) => Number(b.startsWith(stem)) - Number(a.startsWith(stem)))
        .map(([, p]) => p),
    );
  }
  return out.slice(0, 3);
}

/** a log line that names the Service (its name, its namespace-qualified name, its ClusterIP) */
function namesService(text: string, svc: ObjectView): boolean {
  const ip = svc.fields['clusterIP'];
  return (
    new RegExp(`(?:^|[^\\w.-])${svc.name.replace(/[-.]/g, '\\$&')}(?:[.:/"\\s]|$)`).test(text) ||
    (!!ip && text.includes(`${ip}:`))
  );
}

function servicesSelectingOthers(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const refusals = model.logs
    .flatMap((l) => l.lines)
    .filter((x) => /refused|ECONNREFUSED/i.test(x.text));
  if (!refusals.length) return out;
  for (const svc of model.list('service')) {
    const selector = svc.fields['selector'] ?? '';
    const reqs = selector ? selectorOf(selector) : undefined;
    if (!reqs?.length || !svc.namespace) continue;
    const sel = selectedPods(model, svc);
    if (!sel) continue;
    const { own, matched } = sel;
    const targets = servicePorts(svc)
      .map((sp) => String(sp.targetPort ?? sp.port ?? ''))
      .filter(Boolean);
    if (!targets.length) continue;
    // pods of another workload that declare ports, none of them the targetPort
    const strays = matched.filter(
      (p) =>
        !own.has(model.workloadOf(p).name) &&
        p.containers.some((c) => c.ports.length) &&
        !targets.some((t) => serves(p, t)),
    );
    if (!strays.length) continue;
    const strayIps = strays.map((p) => p.fields['podIP']).filter((x): x is string => !!x);
    const refused = refusals.find(
      (x) => namesService(x.text, svc) || strayIps.some((i) => x.text.includes(`${i}:`)),
    );
    if (!refused) continue;
    const other = [...new Set(strays.map((p) => model.workloadOf(p).name))].join(', ');
    const extra = Object.entries(strays[0]!.labels)
      .filter(([k]) => reqs.some((r) => r.key === k))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const ports = [...new Set(strays.flatMap((p) => p.containers.flatMap((c) => c.ports)))];
    const total = matched.length;
    const eps = model.get('endpoints', svc.name, svc.namespace);
    const ownPod = matched.find((p) => own.has(model.workloadOf(p).name))!;
    const distinct = Object.entries(ownPod.labels)
      .filter(
        ([k, v]) =>
          !/pod-template-hash|controller-revision-hash/.test(k) &&
          strays.every((p) => p.labels[k] !== v),
      )
      .map(([k, v]) => `${k}=${v}`)[0];
    out.push({
      entry,
      object: { kind: 'service', name: svc.name, namespace: svc.namespace },
      workload: svc.name,
      fact: `Service ${svc.name} selects ${selector}, which the pods of ${other} carry too (${extra}); they listen on ${ports.join(', ') || 'other ports'}, not targetPort ${targets.join(', ')}: ${refused.text.replace(/\s+/g, ' ').trim().slice(0, 220)}`,
      groups: {
        service: svc.name,
        selector,
        other_workload: other,
        stray_pods: strays
          .map((p) => `${p.name}${p.fields['podIP'] ? ` (${p.fields['podIP']})` : ''}`)
          .join(', '),
        stray_share: `${strays.length} of ${total}`,
        stray_ports: ports.join(', ') || 'other ports',
        target: targets.join(', '),
        refused: refused.text.replace(/\s+/g, ' ').trim().slice(0, 220),
        endpoints_note: eps ? ` (its Endpoints list them)` : '',
        distinct_label: distinct ? ` (e.g. ${distinct})` : '',
      },
      where: 'status',
      source: svc.source ?? 'service',
    });
  }
  return out;
}
