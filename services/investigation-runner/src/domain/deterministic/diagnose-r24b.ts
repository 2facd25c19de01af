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
  return entry ? secretsNeverSynced(model, entry) : [];
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
