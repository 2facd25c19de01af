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

export const R22J_VARS: Record<string, (x: FindingContext) => Vars> = {
  tsdb_lock_held: tsdbLockHolder,
  galera_not_safe_to_bootstrap: galeraMembers,
  ca_scale_down_blocked_local_storage: caLocalStorage,
};
