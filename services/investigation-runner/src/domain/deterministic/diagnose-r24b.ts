/**
 * A rule of round24 (r24b) that compares objects (cause-catalog.data.ts, its "round24 (r24b)"
 * block): a Secret a pod references does not exist, a SecretProviderClass of the namespace
 * declares it in its secretObjects, and no pod of the workload mounts a CSI volume of that class.
 * The Secrets Store CSI driver creates a synced Secret only when a pod mounts the class's volume,
 * so the Secret never appears. A pod whose volumes were not read keeps the rule silent.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';

const NOT_FOUND = /\bsecrets? "([^"]+)" not found/i;

export function r24bFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'spc_secret_never_synced');
  const monitor = entries.find((e) => e.id === 'servicemonitor_not_selected');
  return [
    ...(entry ? secretsNeverSynced(model, entry) : []),
    ...(monitor ? monitorsNotSelected(model, monitor) : []),
  ];
}

/** an HPA's custom metric the adapter has no series for */
const METRIC_MISSING =
  /FailedGet(?:Pods|Object)Metric|could not find the metric|unable to get metric|no metrics returned/;

const pairs = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]);

/**
 * HPAs that cannot get their custom metric, whose workload's ServiceMonitor lacks a label every
 * Prometheus with a serviceMonitorSelector requires (only label selectors are compared: one by
 * expressions or a Prometheus that selects every ServiceMonitor keeps the rule silent).
 */
function monitorsNotSelected(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const proms = model
    .list('prometheus')
    .filter((p) => p.kind === 'prometheus' && p.fields['serviceMonitorSelector'] !== undefined);
  if (!proms.length || proms.some((p) => ['', '?'].includes(p.fields['serviceMonitorSelector']!)))
    return out;
  for (const hpa of model.list('horizontalpodautoscaler')) {
    if (hpa.kind !== 'horizontalpodautoscaler') continue;
    const said =
      hpa.conditions.find(
        (c) =>
          c.type === 'ScalingActive' &&
          c.status === 'False' &&
          METRIC_MISSING.test(`${c.reason ?? ''} ${c.message ?? ''}`),
      )?.message ??
      model.events.find(
        (e) => e.object?.name === hpa.name && METRIC_MISSING.test(`${e.reason ?? ''} ${e.message}`),
      )?.message;
    if (!said || /resource metric/i.test(said)) continue;
    const target = (hpa.fields['scaleTarget'] ?? '').split('/')[1] || hpa.name;
    const monitors = model
      .list('servicemonitor', hpa.namespace)
      .filter((m) => m.kind === 'servicemonitor' && m.namespace === hpa.namespace);
    const sm =
      monitors.find((m) => m.name === target) ??
      monitors.find((m) => pairs(m.fields['selector']).some(([, x]) => x === target));
    if (!sm) continue;
    const has = (m: ObjectView, [k, x]: [string, string]) => m.labels[k] === x;
    // selected by no Prometheus: each lacks one of its selector's labels
    const lacking = proms.map((p) => ({
      p,
      missing: pairs(p.fields['serviceMonitorSelector']).filter((kv) => !has(sm, kv)),
    }));
    if (lacking.some((l) => !l.missing.length)) continue;
    const first = lacking[0]!;
    const label = first.missing.map(([k, x]) => `${k}: ${x}`).join(', ');
    const peer = monitors.find((m) => m !== sm && first.missing.every((kv) => has(m, kv)));
    out.push({
      entry,
      object: { kind: 'horizontalpodautoscaler', name: hpa.name, namespace: hpa.namespace },
      workload: target,
      fact: said,
      groups: {
        prom: `${first.p.namespace ? `${first.p.namespace}/` : ''}${first.p.name}`,
        sm_label: `"${label}"`,
        sm: `${sm.namespace ? `${sm.namespace}/` : ''}${sm.name}`,
        sm_labels:
          Object.entries(sm.labels)
            .map(([k, x]) => `${k}=${x}`)
            .join(', ') || 'none',
        sm_peer: peer
          ? `; ServiceMonitor ${peer.name} in the same namespace has the label and its workload is scraped`
          : '',
      },
      where: 'condition',
      source: 'r24b',
    });
  }
  return out;
}

/** the Secret names a SecretProviderClass syncs (spec.secretObjects[].secretName) */
function syncedSecrets(spc: ObjectView): string[] {
  try {
    const objs = JSON.parse(spc.fields['secretObjects'] ?? '[]') as { secretName?: string }[];
    return Array.isArray(objs)
      ? objs.map((o) => o?.secretName).filter((n): n is string => !!n)
      : [];
  } catch {
    return [];
  }
}

function secretsNeverSynced(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  // the missing Secret, per pod: its events and its containers' waiting messages
  const missing: { pod: ObjectView; secret: string; fact: string }[] = [];
  for (const pod of model.list('pod').filter((p) => p.kind === 'pod')) {
    const said = [
      ...model.events
        .filter(
          (e) =>
            e.object?.name === pod.name &&
            (!e.namespace || !pod.namespace || e.namespace === pod.namespace),
        )
        .map((e) => e.message),
      ...pod.containers.map((c) => c.waiting?.message ?? ''),
    ];
    const hit = said.map((m) => ({ m, x: NOT_FOUND.exec(m) })).find((h) => h.x);
    if (hit?.x) missing.push({ pod, secret: hit.x[1]!, fact: hit.m });
  }
  for (const { pod, secret, fact } of missing) {
    const workload = model.workloadOf(pod).name;
    const key = `${pod.namespace ?? ''}/${workload}/${secret}`;
    if (seen.has(key)) continue;
    const spc = model
      .list('secretproviderclass', pod.namespace)
      .find((o) => o.kind === 'secretproviderclass' && syncedSecrets(o).includes(secret));
    if (!spc) continue;
    // the workload's pods, read with their spec (containers known); none may mount the class
    const pods = model
      .podsOf('deployment', workload, pod.namespace)
      .concat(pod)
      .filter((p) => p.containers.length);
    if (!pods.length) continue;
    const mounts = (p: ObjectView) =>
      (p.fields['volumeSources'] ?? '').includes(`secretProviderClass ${spc.name}"`);
    if (pods.some(mounts)) continue;
    // a pod that tries to mount a volume (FailedMount: the driver fails) does mount the class
    // when its described volumes were not parsed: the mount's own error is the cause then
    if (
      model.events.some(
        (e) =>
          /FailedMount/.test(e.reason ?? '') &&
          pods.some((p) => p.name === e.object?.name) &&
          /secrets-store|secretproviderclass/i.test(e.message),
      )
    )
      continue;
    seen.add(key);
    const volumes = Object.values(
      JSON.parse(pod.fields['volumeSources'] ?? '{}') as Record<string, string>,
    );
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload,
      fact,
      groups: {
        secret,
        spc: spc.name,
        spc_provider: spc.fields['provider'] ? ` (provider ${spc.fields['provider']})` : '',
        spc_volumes: volumes.length
          ? ` (its volumes: ${volumes.join(', ')})`
          : ' (its pod template has no CSI volume)',
      },
      where: 'event',
      source: 'r24b',
    });
  }
  return out;
}
