/**
 * The template variables of the rules of round22 (r22j; cause-catalog.data.ts, its "round22 (r22j)"
 * block): the other pod of a workload that still holds a data directory's lock, and the members of
 * a Galera cluster that all went down together.
 */
import type { FindingContext } from './finding-vars';
import type { ObjectView } from './observe/views';
import { jsonField } from './model';

type Vars = Record<string, string>;

const running = (p: ObjectView) => /Running/i.test(p.status ?? '');

/** the claims a pod mounts ("a,b") */
const claimsOf = (p: ObjectView | undefined): string[] =>
  (p?.fields['claims'] ?? '').split(',').filter(Boolean);

/**
 * Prometheus' TSDB lock is held: the other running pods of the same workload (the old pod a
 * RollingUpdate keeps until the new one is ready), sharing the claim when the listing names it.
 */
function tsdbLockHolder({ f, model, pod }: FindingContext): Vars {
  const self = f.object?.kind === 'pod' ? f.object.name : pod?.name;
  const me = self ? model.get('pod', self, f.object?.namespace) : pod;
  if (!me) return { lock_holder: '' };
  const claims = claimsOf(me);
  const workload = model.workloadOf(me);
  const others = model
    .list('pod', me.namespace)
    .filter((p) => p.name !== me.name && running(p))
    .filter((p) => {
      const w = model.workloadOf(p);
      const shares = claims.some((c) => claimsOf(p).includes(c));
      return shares || (w.kind === workload.kind && w.name === workload.name);
    });
  if (!others.length) return { lock_holder: '' };
  const shared = claims.filter((c) => others.some((p) => claimsOf(p).includes(c)));
  const pvc = shared[0] ? model.get('persistentvolumeclaim', shared[0], me.namespace) : undefined;
  const modes = pvc?.fields['accessModes'];
  return {
    lock_holder: `: ${others.map((p) => p.name).join(', ')} of the same ${workload.kind} is still running${shared.length ? ` on the same volume (claim ${shared.join(', ')}${modes ? `, ${modes}` : ''})` : ''} and holds it`,
  };
}

/** the members of the Galera workload and how many are not ready */
function galeraMembers({ f, model, pod, pods }: FindingContext): Vars {
  const me = f.object?.kind === 'pod' ? model.get('pod', f.object.name, f.object.namespace) : pod;
  const members = me
    ? model.podsOf(model.workloadOf(me).kind, model.workloadOf(me).name, me.namespace)
    : pods;
  const down = members.filter(
    (p) =>
      !running(p) ||
      p.conditions.some((c) => c.type === 'Ready' && c.status !== 'True') ||
      (p.restarts ?? 0) > 0,
  );
  if (members.length < 2 || down.length < members.length) return { galera_members: '' };
  return {
    galera_members: `here all ${members.length} members (${members.map((p) => p.name).join(', ')}) are down: `,
  };
}

/** every node the autoscaler keeps for a pod with local storage, and the workloads of those pods */
function caLocalStorage({ f, model }: FindingContext): Vars {
  const re = /node (\S+) cannot be removed: pod with local storage present: (\S+)/;
  const blocked = new Map<string, string>();
  for (const l of model.logs)
    if (!f.object || l.pod === f.object.name)
      for (const x of l.lines) {
        const m = re.exec(x.text);
        if (m) blocked.set(m[1]!, m[2]!);
      }
  if (!blocked.size) return { ca_local_storage: '' };
  const workloads = new Set<string>();
  const list = [...blocked].map(([node, pod]) => {
    const p = model.get('pod', pod);
    const w = p ? model.workloadOf(p).name : pod;
    workloads.add(w);
    const vols = Object.entries(jsonField(p, 'volumeSources') as Record<string, string>)
      .filter(([, src]) => /emptyDir|hostPath/i.test(src))
      .map(([n, src]) => `${src} ${n}`);
    return `${node.split('.')[0]!} is kept for ${pod} (${w}${vols.length ? `, ${vols.join(', ')}` : ''})`;
  });
  return {
    ca_local_storage: `${blocked.size} node(s) are kept for pods with local storage of ${[...workloads].join(' and ')}: ${list.join('; ')}. `,
  };
}

/**
 * The label behind an object-mapping conflict on kubernetes.labels.<key>: the workloads whose pods
 * carry the plain label <key> while others carry dotted labels under it (<key>.kubernetes.io/...).
 */
function esLabelOwner({ vars, model }: FindingContext): Vars {
  const field = vars['es_field'] ?? '';
  const label = /^kubernetes\.labels\.(.+)$/.exec(field)?.[1];
  const generic = {
    es_label_owner: '',
    es_fix: `Send ${field || 'the field'} in one shape only: rename or drop the plain value in the log shipper (or in the workload that sets it), or map the field for both; the rejected records are then indexed.`,
  };
  if (!label) return generic;
  const pods = model.list('pod');
  // the workloads whose pods carry the plain label, newest pod first (a new release that added it)
  const plain = [
    ...new Set(
      pods
        .filter((p) => p.labels[label] !== undefined)
        .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))
        .map((p) => model.workloadOf(p).name),
    ),
  ].slice(0, 3);
  const dotted = pods.some((p) => Object.keys(p.labels).some((k) => k.startsWith(`${label}.`)));
  return {
    es_label_owner: `. The log shipper turns pod labels into kubernetes.labels.<label> and keeps the dots of labels like ${label}.kubernetes.io/name (Replace_Dots Off), so ${field} became an object${dotted ? '' : ' in that index'}; a plain label "${label}" is a concrete value at the same path, so the logs of every pod that carries it never reach the index${plain.length ? ` (pods with a plain "${label}" label, newest first: ${plain.join(', ')})` : ''}`,
    es_fix: `Turn on Replace_Dots in the Elasticsearch output of the log shipper (fluent-bit: Replace_Dots On; dotted label keys then become ${label}_kubernetes_io/name and no longer clash), or drop/rename the plain "${label}" label (or that field in the shipper); new records are then indexed, and a new index (the next daily one) starts without the old mapping.`,
  };
}

export const R22J_VARS: Record<string, (x: FindingContext) => Vars> = {
  tsdb_lock_held: tsdbLockHolder,
  galera_not_safe_to_bootstrap: galeraMembers,
  ca_scale_down_blocked_local_storage: caLocalStorage,
  es_object_mapping_conflict: esLabelOwner,
};
